// Abuse limits on the account endpoints, shared through PostgreSQL: 429 with Retry-After, per account
// (failed password checks lock it for the window, whoever tries) and per address.
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { call } from "@/test/http";
import { createUser, uid } from "@/test/factories";
import { LIMITS } from "./rate-limit";

const CLIENT_ID = "535759b966935c297be11913acee7a9ca17c025f9f15520e7504728e71110a27";
const address = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}, 10.0.0.${uid().length}`;
const json = { accept: "application/json" };
const grant = (login: string, password: string, from: string) =>
  call("POST", "/oauth/token", { ...json, headers: { "x-forwarded-for": from }, body: { grant_type: "password", client_id: CLIENT_ID, login, password } });

afterEach(() => {
  delete process.env.RATE_LIMIT_FACTOR;
  vi.restoreAllMocks();
});

describe("rate limits", () => {
  it("an account that failed its password too often is locked for the window, even with the right one", async () => {
    const user = await createUser();
    const other = await createUser();
    const max = LIMITS.signInFailuresPerAccount.max;
    for (let i = 0; i < max; i++) expect((await grant(user.login, "wrong password", `203.0.113.${i}`)).status, `failure ${i + 1}`).toBe(400);
    const locked = await grant(user.login, user.password, "203.0.113.200");
    expect(locked.status).toBe(429);
    const retry = Number(locked.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(LIMITS.signInFailuresPerAccount.windowSeconds);
    expect(locked.body.errors[0].message).toMatch(/Too many attempts/);
    // By login in another case too; another account is not affected.
    expect((await grant(user.login.toUpperCase(), user.password, "203.0.113.201")).status).toBe(429);
    expect((await grant(other.login, other.password, "203.0.113.202")).status).toBe(200);
    // When the window has passed, the right password works again.
    await db().$executeRawUnsafe(`UPDATE rate_limits SET window_start = now() - interval '1 hour' WHERE key = $1`, `${LIMITS.signInFailuresPerAccount.name}:${user.login.toLowerCase()}`);
    expect((await grant(user.login, user.password, "203.0.113.203")).status).toBe(200);
  });

  it("one address may check so many passwords in a window (sign-in of the official clients too)", async () => {
    process.env.RATE_LIMIT_FACTOR = "0.1"; // 6 attempts
    const from = address();
    const users = await Promise.all([createUser(), createUser()]);
    const max = Math.floor(LIMITS.signInPerAddress.max * 0.1);
    for (let i = 0; i < max; i++) expect((await grant(users[i % 2].login, users[i % 2].password, from)).status).toBe(200);
    expect((await grant(users[0].login, users[0].password, from)).status).toBe(429);
    const get = await call("GET", "/users/sign_in", json);
    const cookie = get.headers.get("set-cookie")!.split(";")[0];
    const signIn = await call("POST", "/users/sign_in", { ...json, headers: { cookie, "x-forwarded-for": from }, body: { authenticity_token: get.headers.get("x-csrf-token"), user: { login: users[1].login, password: users[1].password } } });
    expect(signIn.status).toBe(429);
    expect((await grant(users[0].login, users[0].password, address())).status).toBe(200);
  });

  it("sign-up: so many accounts per address; a refused registration creates nothing", async () => {
    process.env.RATE_LIMIT_FACTOR = "0.1"; // 2 sign-ups
    const from = address();
    const register = (login: string) => call("POST", "/users", { ...json, headers: { "x-forwarded-for": from }, body: { user: { login, email: `${login}@example.test`, password: "a good password" } } });
    const logins = [`rl_${uid()}`, `rl_${uid()}`, `rl_${uid()}`];
    expect((await register(logins[0])).status).toBe(201);
    expect((await register(logins[1])).status).toBe(201);
    const refused = await register(logins[2]);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await db().user.count({ where: { login: logins[2] } })).toBe(0);
  });

  it("password reset: so many links per account and per address; a refused request mails nothing", async () => {
    const user = await createUser();
    const log = vi.spyOn(console, "info").mockImplementation(() => {});
    const ask = (from: string) => call("POST", "/users/password", { ...json, headers: { "x-forwarded-for": from }, body: { user: { email: user.email } } });
    for (let i = 0; i < LIMITS.resetPerAccount.max; i++) expect((await ask(address())).status).toBe(200);
    const sent = log.mock.calls.length;
    expect((await ask(address())).status).toBe(429);
    expect(log.mock.calls.length).toBe(sent);
  });

  it("RATE_LIMIT_FACTOR=0 turns the limits off", async () => {
    process.env.RATE_LIMIT_FACTOR = "0";
    const user = await createUser();
    for (let i = 0; i < LIMITS.signInFailuresPerAccount.max + 2; i++) await grant(user.login, "wrong password", "203.0.113.9");
    expect((await grant(user.login, user.password, "203.0.113.9")).status).toBe(200);
  });
});
