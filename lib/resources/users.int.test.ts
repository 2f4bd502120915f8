import { describe, expect, it } from "vitest";
import { api } from "@/test/http";
import { createUser, signedInUser, uid } from "@/test/factories";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "users",
  async setup() {
    const self = await signedInUser();
    const other = await signedInUser();
    const third = await signedInUser();
    return { id: self.user.id, writer: self.token, reader: other.token, stranger: third.token };
  },
  async seedMany(n) {
    const tag = uid();
    for (let i = 0; i < n; i++) await createUser({ login: `pg_${tag}_${i}` });
    // login is an exact filter; use display_name of a shared prefix instead via id list.
    const { db } = await import("@/lib/db");
    const ids = (await db().user.findMany({ where: { login: { startsWith: `pg_${tag}_` } }, select: { id: true } })).map((u) => u.id);
    return { query: `id=${ids.join(",")}` };
  },
  update: { display_name: "New Name", languages: ["en", "fr"] },
  invalidUpdate: { global_email_communication: "yes" },
  includes: [],
  sortable: ["login", "display_name", "created_at"],
});

describe("users: fields", () => {
  it("/me has exactly the contract's User fields and link templates", async () => {
    const { user, token } = await signedInUser();
    const res = await api.get("/me", { token });
    expect(res.status).toBe(200);
    const me = res.body.users[0];
    expect(Object.keys(me).sort()).toEqual(
      [
        "id",
        "login",
        "display_name",
        "credited_name",
        "email",
        "languages",
        "created_at",
        "updated_at",
        "type",
        "global_email_communication",
        "project_email_communication",
        "beta_email_communication",
        "nasa_email_communication",
        "ux_testing_email_communication",
        "subject_limit",
        "uploaded_subjects_count",
        "admin",
        "href",
        "login_prompt",
        "private_profile",
        "platform_id",
        "upload_whitelist",
        "avatar_src",
        "valid_email",
        "intervention_notifications",
        "banned",
        "confirmed_at",
        "links",
      ].sort(),
    );
    expect(me).toMatchObject({
      id: String(user.id),
      login: user.login,
      email: user.email,
      type: "users",
      href: `/users/${user.id}`,
      admin: false,
    });
    expect(res.body.links).toEqual({
      "users.classifications": { href: "/classifications?user_id={users.id}", type: "classifications" },
      "users.project_preferences": { href: "/project_preferences?user_id={users.id}", type: "project_preferences" },
      "users.collection_preferences": { href: "/collection_preferences?user_id={users.id}", type: "collection_preferences" },
      "users.projects": { href: "/projects?owner={users.login}", type: "projects" },
      "users.collections": { href: "/collections?owner={users.login}", type: "collections" },
      "users.recents": { href: "/users/{users.id}/recents", type: "recents" },
      "users.avatar": { href: "/users/{users.id}/avatar", type: "avatars" },
      "users.profile_header": { href: "/users/{users.id}/profile_header", type: "profile_headers" },
    });
    expect(res.headers.get("etag")).toBeTruthy();
    expect((await api.get("/me")).status).toBe(401);
  });

  it("shows only public fields of other users; all fields to oneself and admins", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const admin = await signedInUser({ admin: true });
    const asOther = (await api.get(`/users/${a.user.id}`, { token: b.token })).body.users[0];
    expect(asOther.email).toBeUndefined();
    expect(asOther.admin).toBeUndefined();
    expect(asOther.login).toBe(a.user.login);
    expect((await api.get(`/users/${a.user.id}`)).body.users[0].email).toBeUndefined();
    expect((await api.get(`/users/${a.user.id}`, { token: a.token })).body.users[0].email).toBe(a.user.email);
    expect((await api.get(`/users/${a.user.id}`, { token: admin.token })).body.users[0].email).toBe(a.user.email);
    const list = await api.get(`/users?login=${a.user.login}`, { token: b.token });
    expect(list.body.users).toHaveLength(1);
    expect(list.body.users[0].email).toBeUndefined();
  });
});
