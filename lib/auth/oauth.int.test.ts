import crypto from "node:crypto";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { api, call } from "@/test/http";
import { createUser, uid } from "@/test/factories";
import { ALL_SCOPES } from "@/lib/auth/scopes";
import { JWT_ALG, keys } from "./keys";

const PUBLIC = () => env().PUBLIC_CLIENT_ID;
const token = (body: unknown, contentType = "application/json") =>
  call("POST", "/oauth/token", {
    raw: contentType.includes("json") ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString(),
    contentType,
    accept: "application/json",
  });

async function thirdPartyApp(ownerId: number | null, opts: { scopes?: string[]; firstParty?: boolean } = {}) {
  const secret = crypto.randomBytes(16).toString("hex");
  const app = await db().oAuthApplication.create({
    data: {
      name: `App ${uid()}`,
      clientId: crypto.randomBytes(16).toString("hex"),
      secretHash: crypto.createHash("sha256").update(secret).digest("hex"),
      ownerId,
      scopes: opts.scopes ?? ["public", "project"],
      firstParty: opts.firstParty ?? false,
    },
  });
  return { app, secret };
}

describe("/oauth/token", () => {
  it("password grant (JSON and form-encoded) returns the contract's token fields and a working JWT", async () => {
    const user = await createUser();
    for (const ct of ["application/json", "application/x-www-form-urlencoded"]) {
      const res = await token({ grant_type: "password", client_id: PUBLIC(), login: user.login, password: user.password }, ct);
      expect(res.status, ct).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["access_token", "created_at", "expires_in", "refresh_token", "scope", "token_type"]);
      expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 7200, scope: ALL_SCOPES.join(" ") });
      expect(Math.abs(res.body.created_at - Date.now() / 1000)).toBeLessThan(60);
      const claims = JSON.parse(Buffer.from(res.body.access_token.split(".")[1], "base64url").toString());
      expect(claims).toMatchObject({ sub: String(user.id), login: user.login, dname: user.displayName, admin: false, scope: ALL_SCOPES });
      const me = await api.get("/me", { token: res.body.access_token });
      expect(me.body.users[0].login).toBe(user.login);
    }
    // Login by email works too, case-insensitively.
    expect(
      (await token({ grant_type: "password", client_id: PUBLIC(), login: user.email.toUpperCase(), password: user.password })).status,
    ).toBe(200);
  });

  it("rejects bad credentials, unknown clients, missing fields and unsupported grants with JSON errors", async () => {
    const user = await createUser();
    const cases: [string, unknown, number, string][] = [
      [
        "wrong password",
        { grant_type: "password", client_id: PUBLIC(), login: user.login, password: "wrong-password" },
        400,
        "invalid_grant",
      ],
      [
        "unknown user",
        { grant_type: "password", client_id: PUBLIC(), login: `nobody_${uid()}`, password: "whatever1" },
        400,
        "invalid_grant",
      ],
      ["unknown client", { grant_type: "password", client_id: "nope", login: user.login, password: user.password }, 401, "invalid_client"],
      ["no client", { grant_type: "password", login: user.login, password: user.password }, 401, "invalid_client"],
      ["no grant type", { client_id: PUBLIC() }, 400, "invalid_request"],
      ["unsupported grant", { grant_type: "authorization_code", client_id: PUBLIC() }, 400, "unsupported_grant_type"],
      ["no session, no credentials", { grant_type: "password", client_id: PUBLIC() }, 401, "invalid_grant"],
    ];
    for (const [name, body, status, error] of cases) {
      const res = await token(body);
      expect(res.status, name).toBe(status);
      expect(res.body.error, name).toBe(error);
      expect(typeof res.body.errors[0].message, name).toBe("string");
    }
    const malformed = await call("POST", "/oauth/token", { raw: "{", accept: "application/json" });
    expect(malformed.status).toBe(400);
  });

  it("requires requested scopes to equal the application's exactly (422 otherwise)", async () => {
    const user = await createUser();
    const base = { grant_type: "password", client_id: PUBLIC(), login: user.login, password: user.password };
    expect((await token({ ...base, scope: [...ALL_SCOPES].reverse().join(" ") })).status).toBe(200);
    const sub = await token({ ...base, scope: "public project" });
    expect(sub.status).toBe(422);
    expect(sub.body.error).toBe("invalid_scope");
    expect((await token({ ...base, scope: `${ALL_SCOPES.join(" ")} admin` })).status).toBe(422);
  });

  it("allows the password grant only to first-party apps; client_credentials acts as the owner", async () => {
    const owner = await createUser();
    const { app, secret } = await thirdPartyApp(owner.id);
    const pw = await token({ grant_type: "password", client_id: app.clientId, login: owner.login, password: owner.password });
    expect(pw.status).toBe(422);
    const cc = await token({ grant_type: "client_credentials", client_id: app.clientId, client_secret: secret });
    expect(cc.status).toBe(200);
    expect(cc.body.scope).toBe("public project");
    expect((await api.get("/me", { token: cc.body.access_token })).body.users[0].id).toBe(String(owner.id));
    expect((await token({ grant_type: "client_credentials", client_id: app.clientId, client_secret: "wrong" })).status).toBe(401);
    expect(
      (await token({ grant_type: "client_credentials", client_id: app.clientId, client_secret: secret, scope: "public" })).status,
    ).toBe(422);
    const orphan = await thirdPartyApp(null);
    expect((await token({ grant_type: "client_credentials", client_id: orphan.app.clientId, client_secret: orphan.secret })).status).toBe(
      422,
    );
  });

  it("exchanges a refresh token once (rotation) and revokes the old access token", async () => {
    const user = await createUser();
    const first = (await token({ grant_type: "password", client_id: PUBLIC(), login: user.login, password: user.password })).body;
    const second = await token({ grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: PUBLIC() });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await api.get("/me", { token: second.body.access_token })).status).toBe(200);
    expect((await api.get("/me", { token: first.access_token })).status).toBe(401);
    const again = await token({ grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect((await token({ grant_type: "refresh_token", refresh_token: "junk" })).status).toBe(400);
    expect((await token({ grant_type: "refresh_token" })).status).toBe(400);
  });

  it("answers 401 to expired, forged and revoked tokens", async () => {
    const user = await createUser();
    const issued = (await token({ grant_type: "password", client_id: PUBLIC(), login: user.login, password: user.password })).body;
    const claims = JSON.parse(Buffer.from(issued.access_token.split(".")[1], "base64url").toString());
    const { privateKey } = await keys();
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: JWT_ALG })
      .sign(privateKey);
    const forged = `${issued.access_token.slice(0, -4)}AAAA`;
    for (const t of [expired, forged, "garbage"]) {
      const res = await api.get("/me", { token: t });
      expect(res.status).toBe(401);
      expect(res.body.errors[0].message).toBeTruthy();
    }
    expect((await api.get("/projects", { headers: { authorization: "Basic abc" } })).status).toBe(401);
    await db().oAuthGrant.update({ where: { id: claims.jti }, data: { revokedAt: new Date() } });
    expect((await api.get("/me", { token: issued.access_token })).status).toBe(401);
  });

  it("refuses tokens of banned users", async () => {
    const user = await createUser();
    const issued = (await token({ grant_type: "password", client_id: PUBLIC(), login: user.login, password: user.password })).body;
    await db().user.update({ where: { id: user.id }, data: { banned: true } });
    expect((await api.get("/me", { token: issued.access_token })).status).toBe(401);
    expect((await token({ grant_type: "password", client_id: PUBLIC(), login: user.login, password: user.password })).status).toBe(400);
  });
});
