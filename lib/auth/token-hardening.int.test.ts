// Hostile tokens and secrets: every access token that was not issued by us as it stands is a 401 with a
// JSON message (alg none, a symmetric key, another key pair, edited claims, another issuer, expired);
// guessing a client secret is limited like guessing a password; and a password never appears in an
// answer or in anything the server logs, whatever the outcome of the request that carried it.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { importPKCS8, generateKeyPair, SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { LIMITS, LOCKS } from "@/lib/auth/rate-limit";
import { api, call } from "@/test/http";
import { createUser, uid } from "@/test/factories";
import { JWT_ALG, keys } from "./keys";

const json = { accept: "application/json" };
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

afterEach(() => vi.restoreAllMocks());

async function issued() {
  const user = await createUser();
  const res = await call("POST", "/oauth/token", {
    ...json,
    body: { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID, login: user.login, password: user.password },
  });
  expect(res.status).toBe(200);
  const [header, payload, signature] = (res.body.access_token as string).split(".");
  return {
    user,
    token: res.body.access_token as string,
    header,
    payload,
    signature,
    claims: JSON.parse(Buffer.from(payload, "base64url").toString()),
  };
}

describe("access tokens", () => {
  it("the issued token works (the baseline every forgery below is compared with)", async () => {
    const t = await issued();
    expect((await api.get("/me", { token: t.token })).status).toBe(200);
  });

  const forgeries: [string, (t: Awaited<ReturnType<typeof issued>>) => Promise<string>][] = [
    ["alg none, no signature", async (t) => `${b64({ alg: "none", typ: "JWT" })}.${t.payload}.`],
    ["alg none, the original signature kept", async (t) => `${b64({ alg: "none", typ: "JWT" })}.${t.payload}.${t.signature}`],
    [
      "HS256 keyed with our public key (algorithm confusion)",
      async (t) => {
        const pem = (await keys()).publicKeyPem;
        return new SignJWT(t.claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(pem));
      },
    ],
    [
      "HS512 keyed with our public key",
      async (t) => new SignJWT(t.claims).setProtectedHeader({ alg: "HS512" }).sign(new TextEncoder().encode((await keys()).publicKeyPem)),
    ],
    [
      "PS256 (not RS*) signed with our own private key",
      async (t) => {
        await keys();
        const pem = JSON.parse(fs.readFileSync(path.join(process.env.DATA_DIR!, "keys.json"), "utf8")).privateKey;
        return new SignJWT(t.claims).setProtectedHeader({ alg: "PS256" }).sign(await importPKCS8(pem, "PS256"));
      },
    ],
    [
      "signed with another RSA key",
      async (t) => {
        const other = await generateKeyPair(JWT_ALG);
        return new SignJWT(t.claims).setProtectedHeader({ alg: JWT_ALG }).sign(other.privateKey);
      },
    ],
    [
      "claims edited (admin, another subject) under the original signature",
      async (t) => `${t.header}.${b64({ ...t.claims, admin: true, sub: "1" })}.${t.signature}`,
    ],
    ["signature bit flipped", async (t) => `${t.header}.${t.payload}.${t.signature.startsWith("A") ? "B" : "A"}${t.signature.slice(1)}`],
    [
      "another issuer, our key",
      async (t) => new SignJWT({ ...t.claims, iss: "someone-else" }).setProtectedHeader({ alg: JWT_ALG }).sign((await keys()).privateKey),
    ],
    [
      "expired, our key",
      async (t) =>
        new SignJWT({ ...t.claims, exp: Math.floor(Date.now() / 1000) - 1 })
          .setProtectedHeader({ alg: JWT_ALG })
          .sign((await keys()).privateKey),
    ],
    [
      "a grant that does not exist, our key",
      async (t) =>
        new SignJWT({ ...t.claims, jti: crypto.randomUUID() }).setProtectedHeader({ alg: JWT_ALG }).sign((await keys()).privateKey),
    ],
    ["two segments only", async (t) => `${t.header}.${t.payload}`],
    ["not base64", async () => "%%%.%%%.%%%"],
    ["empty", async () => ""],
  ];

  it.each(forgeries)("refuses %s with a JSON 401", async (_name, forge) => {
    const t = await issued();
    const forged = await forge(t);
    for (const path of ["/me", "/projects"]) {
      const res = await api.get(path, { headers: { authorization: `Bearer ${forged}` } });
      expect(res.status, path).toBe(401);
      expect(res.body.errors[0].message).toMatch(/token|authoriz/i);
    }
    // A refused token changes nothing: the write it carried is not made.
    // (Looked up by its own name: other test files create projects in the same database meanwhile.)
    const displayName = `Forged ${uid()}`;
    expect(
      (
        await api.post(
          "/projects",
          { projects: { display_name: displayName, description: "x", primary_language: "en" } },
          { headers: { authorization: `Bearer ${forged}` } },
        )
      ).status,
    ).toBe(401);
    expect(await db().project.count({ where: { displayName } })).toBe(0);
  });
});

describe("client secrets", () => {
  async function app() {
    const owner = await createUser();
    const secret = crypto.randomBytes(16).toString("hex");
    const created = await db().oAuthApplication.create({
      data: {
        name: `App ${uid()}`,
        clientId: crypto.randomBytes(16).toString("hex"),
        secretHash: crypto.createHash("sha256").update(secret).digest("hex"),
        ownerId: owner.id,
        scopes: ["public"],
        firstParty: false,
      },
    });
    return { clientId: created.clientId, secret };
  }
  const grant = (clientId: string, secret: string, from: string) =>
    call("POST", "/oauth/token", { ...json, from, body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret } });

  it("an address that guessed an application's secret wrong too often is locked out of it (429, Retry-After), even with the right one; the owner's address is not", async () => {
    const a = await app();
    const b = await app();
    const attacker = "192.0.2.66";
    for (let i = 0; i < LOCKS.clientSecret.pair.max; i++) expect((await grant(a.clientId, "guess", attacker)).status).toBe(401);
    const locked = await grant(a.clientId, a.secret, attacker);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(locked.body.errors[0].message).toMatch(/Too many attempts/);
    expect((await grant(a.clientId, a.secret, "192.0.2.250")).status).toBe(200);
    expect((await grant(b.clientId, b.secret, "192.0.2.251")).status).toBe(200);
  });

  it("one address guessing across applications is stopped too", async () => {
    const from = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const apps = await Promise.all([app(), app(), app(), app()]);
    for (let i = 0; i < LIMITS.clientSecretFailuresPerAddress.max; i++)
      expect((await grant(apps[i % 4].clientId, "guess", from)).status).toBe(401);
    expect((await grant(apps[0].clientId, apps[0].secret, from)).status).toBe(429);
    expect((await grant(apps[0].clientId, apps[0].secret, "198.19.0.1")).status).toBe(200);
  });
});

describe("passwords", () => {
  it("never appear in an answer or in the server's logs, whatever the outcome", async () => {
    const logged: string[] = [];
    const capture = (...args: unknown[]) =>
      void logged.push(
        args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === "string" ? a : JSON.stringify(a))).join(" "),
      );
    for (const level of ["log", "info", "warn", "error", "debug"] as const) vi.spyOn(console, level).mockImplementation(capture);
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      logged.push(String(chunk));
      return true;
    });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      logged.push(String(chunk));
      return true;
    });

    const login = `pw_${uid()}`;
    const password = `Sekr3t-${uid()}-phrase`;
    const wrong = `Wr0ng-${uid()}-phrase`;
    const answers = [];
    // Registration: refused (bad email, too long password), then accepted.
    answers.push(await call("POST", "/users", { ...json, body: { user: { login, email: "not an email", password } } }));
    answers.push(
      await call("POST", "/users", {
        ...json,
        body: { user: { login, email: `${login}@example.test`, password: `${password}${"x".repeat(80)}` } },
      }),
    );
    answers.push(await call("POST", "/users", { ...json, raw: `{"user": {"login": "${login}", "password": "${password}"` }));
    answers.push(await call("POST", "/users", { ...json, body: { user: { login, email: `${login}@example.test`, password } } }));
    // Every way of checking it, right and wrong.
    for (const pw of [wrong, password]) {
      answers.push(
        await call("POST", "/oauth/token", {
          ...json,
          body: { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID, login, password: pw },
        }),
      );
      answers.push(
        await call("POST", "/oauth/token", { ...json, body: { grant_type: "password", client_id: "no-such-client", login, password: pw } }),
      );
      const get = await call("GET", "/users/sign_in", json);
      const cookie = get.headers.get("set-cookie")!.split(";")[0];
      answers.push(
        await call("POST", "/users/sign_in", {
          ...json,
          headers: { cookie },
          body: { authenticity_token: get.headers.get("x-csrf-token"), user: { login, password: pw } },
        }),
      );
    }
    const token = answers.at(-3)!.body.access_token;
    expect(token).toBeTruthy();
    // Changing it: wrong current password, mismatched confirmation, then a success.
    const next = `N3xt-${uid()}-phrase`;
    answers.push(
      await call("PUT", "/users", {
        ...json,
        token,
        body: { user: { current_password: wrong, password: next, password_confirmation: next } },
      }),
    );
    answers.push(
      await call("PUT", "/users", {
        ...json,
        token,
        body: { user: { current_password: password, password: next, password_confirmation: wrong } },
      }),
    );
    answers.push(
      await call("PUT", "/users", {
        ...json,
        token,
        body: { user: { current_password: password, password: next, password_confirmation: next } },
      }),
    );
    stdout.mockRestore();
    stderr.mockRestore();

    expect(answers.map((a) => a.status)).toEqual([422, 422, 400, 201, 400, 401, 401, 200, 401, 200, 422, 422, 200]);
    for (const secret of [password, wrong, next]) {
      for (const a of answers) {
        expect(a.text).not.toContain(secret);
        for (const [name, value] of a.headers) expect(`${name}: ${value}`).not.toContain(secret);
      }
      for (const line of logged) expect(line).not.toContain(secret);
    }
    // Stored only as a bcrypt hash.
    const stored = await db().user.findFirstOrThrow({ where: { login } });
    expect(stored.encryptedPassword).toMatch(/^\$2[aby]\$/);
    expect(JSON.stringify(stored)).not.toContain(next);
  });
});
