// Sessions end when they should (sign-out; a password change or reset, disabling and a ban end all of the
// user's but the one making the change), in both cookie paths: the official clients' quorum_session
// cookie and our pages' Auth.js cookie. A refresh token used twice revokes its whole family.
import crypto from "node:crypto";
import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { keys } from "@/lib/auth/keys";
import { startSession } from "@/lib/auth/user-sessions";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { api, call } from "@/test/http";
import { createUser, signedInUser, tokenFor } from "@/test/factories";
import { cookieJar } from "@/test/cookie-jar";

const json = "application/json";

/** A client of the official sign-in flow with its own cookie jar. */
async function officialSession(login: string, password: string) {
  const { send, cookie } = cookieJar(json);
  const csrf = (await send("GET", "/users/sign_in")).headers.get("x-csrf-token")!;
  const signIn = await send("POST", "/users/sign_in", { authenticity_token: csrf, user: { login, password } });
  expect(signIn.status).toBe(200);
  return { send, csrf, cookie };
}

/** Whether a copy of the official session cookie still mints a bearer token. */
const mints = async (cookie: string) =>
  (
    await call("POST", "/oauth/token", {
      body: { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID },
      accept: json,
      headers: { cookie },
    })
  ).status;

/** An Auth.js session cookie as our sign-in page makes one (the jwt callback names a session row). */
async function authJsCookie(userId: number, sid?: string) {
  const name = "authjs.session-token";
  const token = await encode({ token: { sub: String(userId), ...(sid ? { sid } : {}) }, secret: (await keys()).authSecret, salt: name });
  return `${name}=${token}`;
}

/** Who /api/me says the Auth.js cookie is (null: nobody). */
async function meWith(cookie: string) {
  const res = await call("GET", "/api/me", { headers: { cookie } });
  return res.status === 200 ? Number(res.body.users[0].id) : null;
}

/** PUT /api/users/<id> as the JSON-API asks: with the record's ETag. */
async function putUser(id: number, body: unknown, token: string) {
  const etag = (await api.get(`/users/${id}`, { token })).headers.get("etag") ?? "";
  return api.put(`/users/${id}`, { users: body }, { token, headers: { "if-match": etag } });
}

const changePassword = (user: { password: string }, next: string, opts: { token?: string; cookie?: string; csrf?: string }) =>
  call("PUT", "/users", {
    body: {
      user: { current_password: user.password, password: next, password_confirmation: next },
      ...(opts.csrf ? { authenticity_token: opts.csrf } : {}),
    },
    accept: json,
    token: opts.token,
    headers: opts.cookie ? { cookie: opts.cookie } : {},
  });

describe("the official clients' session cookie", () => {
  it("a copy stops minting tokens after sign-out", async () => {
    const user = await createUser();
    const s = await officialSession(user.login, user.password);
    const copy = s.cookie();
    expect(await mints(copy)).toBe(200);
    expect((await s.send("DELETE", "/users/sign_out", undefined, { "x-csrf-token": s.csrf })).status).toBe(204);
    expect(await mints(copy)).toBe(401);
  });

  it("a password change made with a token ends every session; one made in a session keeps that session only", async () => {
    const user = await createUser();
    const a = await officialSession(user.login, user.password);
    const b = await officialSession(user.login, user.password);
    const token = await tokenFor(user);
    expect((await changePassword(user, "a new password 1", { token })).status).toBe(200);
    expect(await mints(a.cookie())).toBe(401);
    expect(await mints(b.cookie())).toBe(401);
    expect((await api.get("/me", { token })).status).toBe(200); // the token that made the change

    const changed = { ...user, password: "a new password 1" };
    const c = await officialSession(user.login, changed.password);
    const d = await officialSession(user.login, changed.password);
    const other = await tokenFor(user);
    expect((await changePassword(changed, "a new password 2", { cookie: c.cookie(), csrf: c.csrf })).status).toBe(200);
    expect(await mints(c.cookie())).toBe(200);
    expect(await mints(d.cookie())).toBe(401);
    expect((await api.get("/me", { token: other })).status).toBe(401);
  });
});

describe("our pages' Auth.js session cookie", () => {
  it("is good while its session row is; one without a session row (or another user's) is nobody", async () => {
    const user = await createUser();
    const other = await createUser();
    const sid = await startSession(user.id);
    expect(await meWith(await authJsCookie(user.id, sid))).toBe(user.id);
    expect(await meWith(await authJsCookie(user.id))).toBeNull();
    expect(await meWith(await authJsCookie(other.id, sid))).toBeNull();
  });

  it("a password change ends the other sessions and keeps the one that made it", async () => {
    const user = await createUser();
    const mine = await authJsCookie(user.id, await startSession(user.id));
    const elsewhere = await authJsCookie(user.id, await startSession(user.id));
    const token = await tokenFor(user);
    expect((await changePassword(user, "a new password 3", { cookie: mine })).status).toBe(200);
    expect(await meWith(mine)).toBe(user.id);
    expect(await meWith(elsewhere)).toBeNull();
    expect((await api.get("/me", { token })).status).toBe(401);
  });

  it("a password reset, disabling the account and an admin's ban end every session and token", async () => {
    for (const end of ["reset", "disable", "ban"] as const) {
      const user = await createUser();
      const cookie = await authJsCookie(user.id, await startSession(user.id));
      const official = await officialSession(user.login, user.password);
      const token = await tokenFor(user);
      if (end === "reset") {
        // As if mailed: the account holds the token's hash (lib/domain/accounts.ts).
        const resetToken = crypto.randomBytes(16).toString("hex");
        await db().user.update({
          where: { id: user.id },
          data: { resetPasswordTokenHash: crypto.createHash("sha256").update(resetToken).digest("hex"), resetPasswordSentAt: new Date() },
        });
        const res = await call("PUT", "/users/password", {
          body: { user: { reset_password_token: resetToken, password: "reset password 1", password_confirmation: "reset password 1" } },
          accept: json,
        });
        expect(res.status, end).toBe(200);
      } else if (end === "disable") {
        expect((await api.delete(`/users/${user.id}`, { token: await tokenFor(user) })).status, end).toBe(204);
      } else {
        const admin = await signedInUser({ admin: true });
        expect((await putUser(user.id, { banned: true }, admin.token)).status, end).toBe(200);
      }
      expect(await meWith(cookie), end).toBeNull();
      expect(await mints(official.cookie()), end).toBe(401);
      expect((await api.get("/me", { token })).status, end).toBe(401);
    }
  });

  it("only an admin may ban", async () => {
    const { user, token } = await signedInUser();
    const res = await putUser(user.id, { banned: true }, token);
    expect(res.status).toBe(403);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).banned).toBe(false);
    expect((await api.get("/me", { token })).status).toBe(200);
  });
});

describe("refresh tokens", () => {
  const refresh = (refreshToken: string) =>
    call("POST", "/oauth/token", {
      body: { grant_type: "refresh_token", refresh_token: refreshToken, client_id: env().PUBLIC_CLIENT_ID },
      accept: json,
    });

  it("a refresh token used twice revokes the token that replaced it, and its whole family", async () => {
    const user = await createUser();
    const first = await call("POST", "/oauth/token", {
      body: { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID, login: user.login, password: user.password },
      accept: json,
    });
    expect(first.status).toBe(200);
    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);
    expect((await api.get("/me", { token: third.body.access_token })).status).toBe(200);
    // Another sign-in of the same user is another family and is not touched.
    const unrelated = await tokenFor(user);

    const replay = await refresh(first.body.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    expect((await api.get("/me", { token: third.body.access_token })).status).toBe(401);
    expect((await refresh(third.body.refresh_token)).status).toBe(400);
    expect((await api.get("/me", { token: unrelated })).status).toBe(200);
  });
});
