import { describe, expect, it } from "vitest";
import { projectActionScope, projectReadScope, rolesAllow } from "./project-policy";

describe("project role table", () => {
  it.each([
    [["owner"], { show: true, update: true, destroy: true, translate: true }],
    [["collaborator"], { show: true, update: true, destroy: true, translate: true }],
    [["tester"], { show: true, update: false, destroy: false, translate: false }],
    [["scientist"], { show: true, update: false, destroy: false, translate: false }],
    [["moderator"], { show: true, update: false, destroy: false, translate: false }],
    [["translator"], { show: true, update: false, destroy: false, translate: true }],
    [["expert"], { show: true, update: false, destroy: false, translate: false }],
    [[], { show: false, update: false, destroy: false, translate: false }],
    [["unknown"], { show: false, update: false, destroy: false, translate: false }],
    [["tester", "collaborator"], { show: true, update: true, destroy: true, translate: true }],
  ])("%j may %o", (roles, want) => {
    for (const [action, allowed] of Object.entries(want)) expect(rolesAllow(roles, action as "show"), action).toBe(allowed);
  });
});

describe("project scopes", () => {
  const user = { id: 7, login: "u", displayName: "U", admin: false };
  it.each([
    ["anonymous", { user: null, scopes: [] }, { private: false }],
    ["admin", { user: { ...user, admin: true }, scopes: null }, {}],
  ])("%s read scope", (_n, actor, want) => expect(projectReadScope(actor)).toEqual(want));

  it("a user sees public projects and private ones where a role may show", () => {
    const scope = projectReadScope({ user, scopes: null }) as { OR: unknown[] };
    expect(scope.OR[0]).toEqual({ private: false });
    expect(JSON.stringify(scope.OR[1])).toContain('"userId":7');
  });

  it("anonymous may act on nothing", () => expect(projectActionScope({ user: null, scopes: [] }, "update")).toEqual({ id: -1 }));
});
