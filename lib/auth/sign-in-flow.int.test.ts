import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { api, call } from "@/test/http";
import { createUser, uid } from "@/test/factories";
import { cookieJar } from "@/test/cookie-jar";

const browser = () => cookieJar();

describe("the official clients' sign-in flow", () => {
  it("GET sign_in → CSRF + cookie; POST sign_in; password grant from the session; sign_out", async () => {
    const user = await createUser();
    const b = browser();
    const get = await b.send("GET", "/users/sign_in?now=123");
    expect(get.status).toBe(200);
    const csrf = get.headers.get("x-csrf-token")!;
    expect(csrf.length).toBeGreaterThan(20);
    expect(b.cookie()).toMatch(/^quorum_session=/);

    const bad = await b.send("POST", "/users/sign_in", {
      authenticity_token: csrf,
      user: { login: user.login, password: "nope-nope", remember_me: true },
    });
    expect(bad.status).toBe(401);
    expect(bad.body.errors[0].message).toMatch(/Invalid/);
    const forged = await b.send("POST", "/users/sign_in", {
      authenticity_token: "forged",
      user: { login: user.login, password: user.password },
    });
    expect(forged.status).toBe(422);

    const ok = await b.send("POST", "/users/sign_in", {
      authenticity_token: csrf,
      user: { login: user.login, password: user.password, remember_me: true },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.users[0]).toMatchObject({ id: String(user.id), login: user.login });

    const tok = await b.send("POST", "/oauth/token", { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID });
    expect(tok.status).toBe(200);
    // The session cookie also arrives on bearer calls; the bearer decides.
    const me = await call("GET", "/api/me", { token: tok.body.access_token, headers: { cookie: b.cookie() } });
    expect(me.body.users[0].login).toBe(user.login);

    expect((await b.send("DELETE", "/users/sign_out")).status).toBe(422);
    const out = await b.send("DELETE", "/users/sign_out", undefined, {
      "x-csrf-token": csrf,
      authorization: `Bearer ${tok.body.access_token}`,
    });
    expect(out.status).toBe(204);
    expect((await b.send("POST", "/oauth/token", { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID })).status).toBe(401);
    expect((await api.get("/me", { token: tok.body.access_token })).status).toBe(401);
  });

  it("registers with POST /users (validated), signing the new user in", async () => {
    const b = browser();
    const csrf = (await b.send("GET", "/users/sign_in")).headers.get("x-csrf-token")!;
    const login = `reg_${uid()}`;
    const res = await b.send("POST", "/users", {
      authenticity_token: csrf,
      user: {
        login,
        email: `${login}@example.test`,
        password: "long-enough-pw",
        credited_name: "R. Egister",
        global_email_communication: true,
        project_id: null,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.users[0]).toMatchObject({ login, display_name: login, credited_name: "R. Egister", global_email_communication: true });
    const tok = await b.send("POST", "/oauth/token", { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID });
    expect(tok.status).toBe(200);

    // Only the accounts these cases could make: other test files register users in the same database meanwhile.
    const count = () =>
      db().user.count({
        where: {
          OR: [{ email: { endsWith: `${login}@example.test` } }, { login: { contains: login, mode: "insensitive" } }, { login: "a b" }],
        },
      });
    const before = await count();
    const cases: [string, unknown, number][] = [
      [
        "taken login (any case)",
        { user: { login: login.toUpperCase(), email: `x${login}@example.test`, password: "long-enough-pw" } },
        400,
      ],
      ["taken email", { user: { login: `o${login}`, email: `${login}@example.test`, password: "long-enough-pw" } }, 400],
      ["short password", { user: { login: `p${login}`, email: `p${login}@example.test`, password: "short" } }, 422],
      ["bad email", { user: { login: `q${login}`, email: "not-an-email", password: "long-enough-pw" } }, 422],
      ["bad login", { user: { login: "a b", email: `r${login}@example.test`, password: "long-enough-pw" } }, 422],
      ["unknown key", { user: { login: `s${login}`, email: `s${login}@example.test`, password: "long-enough-pw", admin: true } }, 422],
      ["no user", { login }, 422],
    ];
    for (const [name, body, status] of cases) {
      const r = await call("POST", "/users", { body, accept: "application/json" });
      expect(r.status, name).toBe(status);
      expect(r.body.errors[0].message, name).toBeTruthy();
    }
    expect(await count()).toBe(before);
  });

  it("POST /unsubscribe turns off newsletter email and answers an empty 200", async () => {
    const user = await createUser();
    await db().user.update({ where: { id: user.id }, data: { globalEmailCommunication: true, betaEmailCommunication: true } });
    const res = await call("POST", "/unsubscribe", { body: { email: user.email.toUpperCase() }, accept: "application/json" });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    const after = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect([after.globalEmailCommunication, after.betaEmailCommunication, after.projectEmailCommunication]).toEqual([false, false, false]);
    expect((await call("POST", "/unsubscribe", { body: { email: "nobody@example.test" }, accept: "application/json" })).status).toBe(200);
    expect((await call("POST", "/unsubscribe", { body: { email: "nope" }, accept: "application/json" })).status).toBe(422);
  });
});
