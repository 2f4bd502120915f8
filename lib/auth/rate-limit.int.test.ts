// Abuse limits on the account endpoints, shared through PostgreSQL: 429 with Retry-After. Failed password
// checks lock an account for the address that failed (by account id, however the login is typed), with a
// ceiling over all addresses past which only an address without failures may try; per-address limits.
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { call } from "@/test/http";
import { createUser, uid } from "@/test/factories";
import { LIMITS, LOCKS } from "./rate-limit";

const CLIENT_ID = "535759b966935c297be11913acee7a9ca17c025f9f15520e7504728e71110a27";
const address = () => `198.51.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
const json = { accept: "application/json" };
const grant = (login: string, password: string, from: string, headers: Record<string, string> = {}) =>
  call("POST", "/oauth/token", { ...json, from, headers, body: { grant_type: "password", client_id: CLIENT_ID, login, password } });

afterEach(() => {
  delete process.env.RATE_LIMIT_FACTOR;
  vi.restoreAllMocks();
});

describe("rate limits", () => {
  it("an address that failed an account's password too often is locked out of it, even with the right one; other addresses are not", async () => {
    const user = await createUser();
    const other = await createUser();
    const attacker = "203.0.113.66";
    const max = LOCKS.signIn.pair.max;
    for (let i = 0; i < max; i++) expect((await grant(user.login, "wrong password", attacker)).status, `failure ${i + 1}`).toBe(400);
    const locked = await grant(user.login, user.password, attacker);
    expect(locked.status).toBe(429);
    const retry = Number(locked.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(LOCKS.signIn.pair.windowSeconds);
    expect(locked.body.errors[0].message).toMatch(/Too many attempts/);
    // By login in another case, by email, and by a wildcard pattern: one account, one lock.
    expect((await grant(user.login.toUpperCase(), user.password, attacker)).status).toBe(429);
    expect((await grant(user.email, user.password, attacker)).status).toBe(429);
    // The owner, from an address without failures, signs in; another account is not affected.
    expect((await grant(user.login, user.password, "198.51.100.77")).status).toBe(200);
    expect((await grant(other.login, other.password, attacker)).status).toBe(200);
    // When the window has passed, the right password works from the attacker's address again.
    await db().$executeRawUnsafe(
      `UPDATE rate_limits SET window_start = now() - interval '1 hour' WHERE key LIKE $1`,
      `${LOCKS.signIn.pair.name}:id:${user.id}|%`,
    );
    expect((await grant(user.login, user.password, attacker)).status).toBe(200);
  });

  it("a forwarded address written by the client buys no new budget", async () => {
    const user = await createUser();
    for (let i = 0; i < LOCKS.signIn.pair.max; i++) {
      expect(
        (await grant(user.login, "wrong password", "203.0.113.67", { "x-forwarded-for": `192.0.2.${i}`, "x-real-ip": `192.0.2.${i}` }))
          .status,
      ).toBe(400);
    }
    expect((await grant(user.login, user.password, "203.0.113.67", { "x-forwarded-for": "192.0.2.200" })).status).toBe(429);
  });

  it("wildcards in a login or email sign in as nobody and share no lock with the account", async () => {
    const user = await createUser();
    const variants = [
      `${user.login.slice(0, -1)}_`,
      `${user.login.slice(0, 4)}%`,
      `%`,
      `${user.email.slice(0, -1)}_`,
      `%@example.test`,
      `${user.login}\\`,
    ];
    for (const v of variants) expect((await grant(v, user.password, "203.0.113.68")).status, v).toBe(400);
  });

  it("distributed guessing: past the ceiling over all addresses, an address with failures is refused at once, one without may still sign in", async () => {
    process.env.RATE_LIMIT_FACTOR = "0.1"; // pair 1, ceiling 10
    const user = await createUser();
    const ceiling = Math.floor(LOCKS.signIn.whole.max * 0.1);
    for (let i = 0; i < ceiling; i++) expect((await grant(user.login, "wrong password", `203.0.114.${i}`)).status).toBe(400);
    // An address that failed before: locked (its own pair lock, and the ceiling).
    expect((await grant(user.login, user.password, "203.0.114.0")).status).toBe(429);
    // A new address guessing wrong is counted, and then refused like the others.
    expect((await grant(user.login, "still wrong", "203.0.114.200")).status).toBe(400);
    expect((await grant(user.login, user.password, "203.0.114.200")).status).toBe(429);
    // The owner from an address without failures gets in.
    expect((await grant(user.login, user.password, "198.51.100.78")).status).toBe(200);
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
    const signIn = await call("POST", "/users/sign_in", {
      ...json,
      from,
      headers: { cookie },
      body: { authenticity_token: get.headers.get("x-csrf-token"), user: { login: users[1].login, password: users[1].password } },
    });
    expect(signIn.status).toBe(429);
    expect((await grant(users[0].login, users[0].password, address())).status).toBe(200);
  });

  it("sign-up: so many accounts per address; a refused registration creates nothing", async () => {
    process.env.RATE_LIMIT_FACTOR = "0.1"; // 2 sign-ups
    const from = address();
    const register = (login: string) =>
      call("POST", "/users", { ...json, from, body: { user: { login, email: `${login}@example.test`, password: "a good password" } } });
    const logins = [`rl_${uid()}`, `rl_${uid()}`, `rl_${uid()}`];
    expect((await register(logins[0])).status).toBe(201);
    expect((await register(logins[1])).status).toBe(201);
    const refused = await register(logins[2]);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await db().user.count({ where: { login: logins[2] } })).toBe(0);
  });

  // Sign-up answers "email has already been taken" (the official front end puts it on the email field), so
  // one address learns that of only so many addresses before every sign-up of its own is refused for the
  // window, whichever email the next one names.
  it("sign-up: an address is told an email is taken only so many times", async () => {
    const from = address();
    const register = (login: string, email: string, at = from) =>
      call("POST", "/users", { ...json, from: at, body: { user: { login, email, password: "a good password" } } });
    const known = await Promise.all(Array.from({ length: LIMITS.signUpTakenEmailPerAddress.max + 1 }, () => createUser()));
    for (const [i, user] of known.slice(0, -1).entries()) {
      const res = await register(`rl_${uid()}`, user.email);
      expect(res.status, `probe ${i + 1}`).toBe(400);
      expect(res.body.errors[0].message).toMatch(/email(.+)taken/);
    }
    for (const email of [known[known.length - 1].email, `fresh_${uid()}@example.test`]) {
      const refused = await register(`rl_${uid()}`, email);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await db().user.count({ where: { email } })).toBe(email.startsWith("fresh") ? 0 : 1);
    }
    // Another address is answered as before; a taken login is no secret and is not counted.
    expect((await register(`rl_${uid()}`, known[known.length - 1].email, address())).body.errors[0].message).toBe(
      "email has already been taken",
    );
    const other = address();
    for (let i = 0; i <= LIMITS.signUpTakenEmailPerAddress.max; i++)
      expect((await register(known[0].login, `fresh_${uid()}@example.test`, other)).status).toBe(400);
    expect((await register(`rl_${uid()}`, `fresh_${uid()}@example.test`, other)).status).toBe(201);
  });

  it("password reset: so many links per account and per address; a refused request mails nothing", async () => {
    const user = await createUser();
    const log = vi.spyOn(console, "info").mockImplementation(() => {});
    const ask = (from: string) => call("POST", "/users/password", { ...json, from, body: { user: { email: user.email } } });
    for (let i = 0; i < LIMITS.resetPerAccount.max; i++) expect((await ask(address())).status).toBe(200);
    const sent = log.mock.calls.length;
    expect((await ask(address())).status).toBe(429);
    expect(log.mock.calls.length).toBe(sent);
  });

  it("RATE_LIMIT_FACTOR=0 turns the limits off", async () => {
    process.env.RATE_LIMIT_FACTOR = "0";
    const user = await createUser();
    for (let i = 0; i < LOCKS.signIn.pair.max + 2; i++) await grant(user.login, "wrong password", "203.0.113.9");
    expect((await grant(user.login, user.password, "203.0.113.9")).status).toBe(200);
  });
});
