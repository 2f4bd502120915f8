// Accounts as the established platform's Devise routes and Doorkeeper's implicit grant: password change,
// reset by a mailed token (through a real SMTP server, and logged when none is configured), disabling an
// account, and GET /oauth/authorize.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { db } from "@/lib/db";
import { ALL_SCOPES } from "@/lib/auth/scopes";
import { api, call } from "@/test/http";
import { createUser, signedInUser, tokenFor, uid } from "@/test/factories";

const mails: { to: string; text: string }[] = [];
let smtp: SMTPServer;

/** Quoted-printable as nodemailer writes long lines: soft breaks and =XX escapes. */
const unQuote = (s: string) => s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, session, done) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString()));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), text: unQuote(raw) });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const json = { accept: "application/json" };
const tokenIn = (text: string) => /reset_password_token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
const passwordGrant = (login: string, password: string) =>
  call("POST", "/oauth/token", {
    ...json,
    body: {
      grant_type: "password",
      client_id: process.env.PUBLIC_CLIENT_ID ?? "535759b966935c297be11913acee7a9ca17c025f9f15520e7504728e71110a27",
      login,
      password,
    },
  });

describe("password reset by email", () => {
  it("mails a single-use link to the account's address; the new password works, the old and every token do not", async () => {
    const user = await createUser();
    const token = await tokenFor(user);
    const before = mails.length;
    const unknown = await call("POST", "/users/password", { ...json, body: { user: { email: `nobody-${uid()}@example.test` } } });
    const known = await call("POST", "/users/password", { ...json, body: { user: { email: user.email.toUpperCase() } } });
    expect([unknown.status, known.status]).toEqual([200, 200]);
    expect(unknown.body.message).toBe(known.body.message); // does not tell who has an account
    expect(mails.length).toBe(before + 1);
    const mail = mails[mails.length - 1];
    expect(mail.to).toBe(user.email);
    const resetToken = tokenIn(mail.text)!;
    expect(resetToken).toHaveLength(43);
    expect(mail.text).toContain(`/reset-password?reset_password_token=${resetToken}`);

    const bad: [string, object, RegExp][] = [
      [
        "mismatched confirmation",
        { reset_password_token: resetToken, password: "new password 1", password_confirmation: "other password" },
        /doesn't match/,
      ],
      ["short password", { reset_password_token: resetToken, password: "short" }, /at least 8/],
      ["wrong token", { reset_password_token: "x".repeat(43), password: "new password 1" }, /invalid or has expired/],
    ];
    for (const [name, body, message] of bad) {
      const res = await call("PUT", "/users/password", { ...json, body: { user: body } });
      expect(res.status, name).toBe(422);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect((await passwordGrant(user.login, user.password)).status).toBe(200); // nothing changed yet

    const reset = await call("PUT", "/users/password", {
      ...json,
      body: { user: { reset_password_token: resetToken, password: "new password 1", password_confirmation: "new password 1" } },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.users[0].login).toBe(user.login);
    expect(reset.headers.get("set-cookie")).toMatch(/^quorum_session=/);
    expect((await passwordGrant(user.login, user.password)).status).toBe(400);
    expect((await passwordGrant(user.login, "new password 1")).status).toBe(200);
    expect((await api.get("/me", { token })).status).toBe(401); // signed out everywhere
    const again = await call("PUT", "/users/password", {
      ...json,
      body: { user: { reset_password_token: resetToken, password: "new password 2" } },
    });
    expect(again.status).toBe(422);
  });

  it("a link older than 6 hours no longer works", async () => {
    const user = await createUser();
    await call("POST", "/users/password", { ...json, body: { user: { email: user.email } } });
    const resetToken = tokenIn(mails[mails.length - 1].text)!;
    await db().user.update({ where: { id: user.id }, data: { resetPasswordSentAt: new Date(Date.now() - 6 * 3600_000 - 1000) } });
    const res = await call("PUT", "/users/password", {
      ...json,
      body: { user: { reset_password_token: resetToken, password: "new password 1" } },
    });
    expect(res.status).toBe(422);
    expect((await passwordGrant(user.login, user.password)).status).toBe(200);
  });

  it("without SMTP_URL the message is written to the log instead", async () => {
    const user = await createUser();
    const saved = process.env.SMTP_URL;
    delete process.env.SMTP_URL;
    const log = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      expect((await call("POST", "/users/password", { ...json, body: { user: { email: user.email } } })).status).toBe(200);
      const logged = log.mock.calls.map((c) => String(c[0])).join("\n");
      expect(logged).toContain(`To: ${user.email}`);
      expect(tokenIn(logged)).toHaveLength(43);
    } finally {
      log.mockRestore();
      process.env.SMTP_URL = saved;
    }
  });
});

describe("password change (PUT /users)", () => {
  it("needs the current password; keeps the token used and revokes the others", async () => {
    const user = await createUser();
    const [current, other] = [await tokenFor(user), await tokenFor(user)];
    const put = (body: object, token?: string) => call("PUT", "/users", { ...json, token, body: { user: body } });
    expect((await put({ current_password: user.password, password: "new password 1" })).status).toBe(401);
    const wrong = await put({ current_password: "not it at all", password: "new password 1" }, current);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].message).toMatch(/current_password is invalid/);
    expect(
      (await put({ current_password: user.password, password: "new password 1", password_confirmation: "nope nope" }, current)).status,
    ).toBe(422);
    expect((await put({ current_password: user.password, password: "x".repeat(73) }, current)).status).toBe(422);
    expect((await put({ current_password: user.password, password: "new password 1", admin: true }, current)).status).toBe(422);
    expect((await passwordGrant(user.login, user.password)).status).toBe(200);

    const ok = await put({ current_password: user.password, password: "new password 1", password_confirmation: "new password 1" }, current);
    expect(ok.status).toBe(200);
    expect((await api.get("/me", { token: current })).status).toBe(200);
    expect((await api.get("/me", { token: other })).status).toBe(401);
    expect((await passwordGrant(user.login, "new password 1")).status).toBe(200);
  });
});

describe("DELETE /api/users/<id>", () => {
  it("the user or an admin disables the account: scrubbed, signed out, never signs in again", async () => {
    const [a, b] = [await signedInUser(), await signedInUser()];
    const admin = await signedInUser({ admin: true });
    expect((await api.delete(`/users/${a.user.id}`)).status).toBe(401);
    expect((await api.delete(`/users/${a.user.id}`, { token: b.token })).status).toBe(403);
    expect((await db().user.findUniqueOrThrow({ where: { id: a.user.id } })).disabledAt).toBeNull();
    expect((await api.delete(`/users/${a.user.id}`, { token: a.token })).status).toBe(204);
    const scrubbed = await db().user.findUniqueOrThrow({ where: { id: a.user.id } });
    expect(scrubbed).toMatchObject({
      login: `deleted-${a.user.id}`,
      email: `deleted-${a.user.id}@deleted.invalid`,
      displayName: "Deleted user",
      banned: true,
    });
    expect(scrubbed.disabledAt).not.toBeNull();
    expect((await api.get("/me", { token: a.token })).status).toBe(401);
    expect((await passwordGrant(a.user.login, a.user.password)).status).toBe(400);
    expect((await api.delete(`/users/${a.user.id}`, { token: admin.token })).status).toBe(404);
    expect((await api.delete(`/users/${b.user.id}`, { token: admin.token })).status).toBe(204);
    expect((await api.delete(`/users/99999999`, { token: admin.token })).status).toBe(404);
    // The login is free again for someone new.
    expect(
      (await call("POST", "/users", { ...json, body: { user: { login: a.user.login, email: a.user.email, password: "some password" } } }))
        .status,
    ).toBe(201);
  });
});

describe("GET /oauth/authorize (implicit grant)", () => {
  it("sends a signed-in browser back to the registered redirect_uri with a token; others to sign in", async () => {
    const user = await createUser();
    const redirect = "https://app.example/callback";
    const app = await db().oAuthApplication.create({
      data: { name: `App ${uid()}`, clientId: uid(), firstParty: true, redirectUris: [redirect], scopes: [...ALL_SCOPES] },
    });
    const third = await db().oAuthApplication.create({
      data: { name: `Third ${uid()}`, clientId: uid(), firstParty: false, redirectUris: [redirect], scopes: ["public"] },
    });
    // The official clients' session: GET sign_in (CSRF), POST sign_in.
    const get = await call("GET", "/users/sign_in", json);
    let cookie = get.headers.get("set-cookie")!.split(";")[0];
    const signIn = await call("POST", "/users/sign_in", {
      ...json,
      headers: { cookie },
      body: { authenticity_token: get.headers.get("x-csrf-token"), user: { login: user.login, password: user.password } },
    });
    cookie = signIn.headers.get("set-cookie")!.split(";")[0];
    const authorize = (q: string, withCookie = true) =>
      call("GET", `/oauth/authorize?${q}`, { ...json, headers: withCookie ? { cookie } : {} });
    const base = `client_id=${app.clientId}&redirect_uri=${encodeURIComponent(redirect)}&response_type=token&state=xyz`;

    const ok = await authorize(base);
    expect(ok.status).toBe(302);
    const location = new URL(ok.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(redirect);
    const frag = new URLSearchParams(location.hash.slice(1));
    expect(Object.fromEntries(frag)).toMatchObject({ token_type: "Bearer", expires_in: "7200", state: "xyz" });
    expect(frag.get("refresh_token")).toBeNull();
    expect((await api.get("/me", { token: frag.get("access_token")! })).body.users[0].login).toBe(user.login);
    const narrow = new URLSearchParams(new URL((await authorize(`${base}&scope=public+user`)).headers.get("location")!).hash.slice(1));
    expect(narrow.get("scope")).toBe("public user");

    const anonymous = await authorize(base, false);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe(`/sign-in?return_to=${encodeURIComponent(`/oauth/authorize?${base}`)}`);

    // Errors with a trusted redirect_uri go back there; without one they are answered here.
    const errorOf = async (q: string) =>
      new URLSearchParams(new URL((await authorize(q)).headers.get("location")!).hash.slice(1)).get("error");
    expect(await errorOf(base.replace("response_type=token", "response_type=code"))).toBe("unsupported_response_type");
    expect(await errorOf(`${base}&scope=public+superpowers`)).toBe("invalid_scope");
    expect(await errorOf(base.replace(app.clientId, third.clientId))).toBe("unauthorized_client");
    const badRedirect = await authorize(base.replace(encodeURIComponent(redirect), encodeURIComponent("https://evil.example/")));
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.body).toMatchObject({ error: "invalid_redirect_uri" });
    expect((await authorize(`client_id=nope&response_type=token`)).status).toBe(401);
    expect((await authorize(`response_type=token`)).status).toBe(400);
  });
});
