// Every lookup by a user-given string is exact: `_`, `%` and `\` in what a client sends are characters,
// not wildcards (they were ILIKE patterns: registered emails could be learned a character at a time, one
// anonymous unsubscribe reached every matching account, a trailing backslash was a 500).
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { api, call } from "@/test/http";
import { createProject, createUser, signedInUser, uid } from "@/test/factories";
import { createGroup } from "@/test/factories-user-groups";
import { createOrganization } from "@/test/factories-organizations";
import { createCollection } from "@/test/factories-collections";

const json = "application/json";

/** Patterns that matched `value` as ILIKE patterns, and a trailing backslash. */
const patterns = (value: string) => [
  `${value.slice(0, -1)}_`,
  `${value.slice(0, 3)}%`,
  "%",
  value.replace(/[a-z]/g, "_"),
  `${value}\\`,
  `${value.slice(0, -1)}\\`,
];

describe("accounts", () => {
  it("sign-up does not say that an email or login matching a pattern is taken", async () => {
    const user = await createUser({ login: `exact_${uid()}` });
    const [local] = user.email.split("@");
    for (const email of [
      `${local.slice(0, -1)}_@example.test`,
      `${local.slice(0, 4)}%@example.test`,
      `${local.replace(/[a-z0-9]/g, "_")}@example.test`,
    ]) {
      const login = `p${uid()}`;
      const res = await call("POST", "/users", { body: { user: { login, email, password: "a good password" } }, accept: json });
      // A pattern is just an address: either it registers, or it is refused as an invalid address, never as taken.
      expect(res.status === 201 || (res.status === 422 && !/taken/.test(res.body.errors[0].message)), email).toBe(true);
    }
    const taken = await call("POST", "/users", {
      body: { user: { login: `${user.login.slice(0, -1)}_`, email: `x${uid()}@example.test`, password: "a good password" } },
      accept: json,
    });
    expect(taken.status).toBe(201);
    // The same address in another case is taken.
    const again = await call("POST", "/users", {
      body: { user: { login: `q${uid()}`, email: user.email.toUpperCase(), password: "a good password" } },
      accept: json,
    });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].message).toMatch(/email has already been taken/);
  });

  it("unsubscribe by a pattern turns off nobody's mail; the address itself (any case) does", async () => {
    const user = await createUser();
    await db().user.update({ where: { id: user.id }, data: { globalEmailCommunication: true } });
    const [local, domain] = user.email.split("@");
    for (const email of [`${local.replace(/./g, "_")}@${domain}`, `${local.slice(0, -1)}_@${domain}`, `%@${domain}`]) {
      expect((await call("POST", "/unsubscribe", { body: { email }, accept: json })).status).toBeLessThan(500);
    }
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).globalEmailCommunication).toBe(true);
    expect((await call("POST", "/unsubscribe", { body: { email: user.email.toUpperCase() }, accept: json })).status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).globalEmailCommunication).toBe(false);
  });

  it("a password reset asked with a pattern mails nobody", async () => {
    const user = await createUser();
    const log = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      const [local, domain] = user.email.split("@");
      for (const email of [`${local.slice(0, -1)}_@${domain}`, `%@${domain}`]) {
        expect((await call("POST", "/users/password", { body: { user: { email } }, accept: json })).status).toBe(200);
      }
      expect(log.mock.calls.flat().join("\n")).not.toContain(user.login);
      expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).resetPasswordSentAt).toBeNull();
    } finally {
      log.mockRestore();
    }
  });
});

describe("list filters", () => {
  it("each string filter matches only itself (ignoring case) and a trailing backslash is no 500", async () => {
    const { user, token } = await signedInUser({ admin: true });
    const project = await createProject(user.id, { displayName: `Exact Project ${uid()}` });
    const group = await createGroup({ user, token }, { name: `exactgroup${uid()}`, private: false });
    const org = await createOrganization(user.id, { displayName: `Exact Org ${uid()}` });
    const collection = await createCollection({ userId: user.id }, { displayName: `Exact Collection ${uid()}` });
    const orgRow = org;
    const cases: [string, string, string, string][] = [
      // [path, filter, the record's value, envelope key]
      ["/users", "login", user.login, "users"],
      ["/users", "display_name", user.displayName, "users"],
      ["/projects", "owner", user.login, "projects"],
      ["/organizations", "slug", orgRow.slug!, "organizations"],
      ["/user_groups", "name", group.name, "user_groups"],
    ];
    for (const [path, filter, value, key] of cases) {
      const exact = await api.get(`${path}?${filter}=${encodeURIComponent(value.toUpperCase())}`, { token });
      expect(exact.status, `${path} ${filter}`).toBe(200);
      expect(exact.body[key].length, `${path} ${filter}=${value} (other case)`).toBeGreaterThan(0);
      for (const p of patterns(value)) {
        const res = await api.get(`${path}?${filter}=${encodeURIComponent(p)}`, { token });
        expect(res.status, `${path} ${filter}=${p}`).toBe(200);
        expect(res.body[key], `${path} ${filter}=${p}`).toEqual([]);
      }
    }
    // Searches are "contains", with the wildcards as characters.
    const searches: [string, string, string][] = [
      ["/projects", project.displayName, "projects"],
      ["/collections", collection.displayName, "collections"],
      ["/user_groups", group.name, "user_groups"],
    ];
    for (const [path, value, key] of searches) {
      expect(
        (await api.get(`${path}?search=${encodeURIComponent(value.slice(2, 9).toUpperCase())}`, { token })).body[key].length,
        path,
      ).toBeGreaterThan(0);
      for (const p of [`${value.slice(0, 4)}%${value.slice(6)}`, `${value.slice(0, 4)}_${value.slice(5)}`, "\\", `${value}\\`]) {
        const res = await api.get(`${path}?search=${encodeURIComponent(p)}`, { token });
        expect(res.status, `${path} search=${p}`).toBe(200);
        expect(res.body[key], `${path} search=${p}`).toEqual([]);
      }
    }
  });
});
