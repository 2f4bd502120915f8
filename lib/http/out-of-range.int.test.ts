// Numbers past what their column holds (ids are PostgreSQL integers, at most 2147483647) are the client's
// mistake: each place that takes one refuses it with a 422 naming it, and errorResponse answers one that
// still reaches the database 422 too (never a 500).
import { beforeAll, describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import { call } from "@/test/http";
import { classifiableProject } from "@/test/factories";
import { errorResponse } from "./respond";
import { failure } from "@/test/failure";

describe("a number out of range that reaches the database", () => {
  it.each([
    ["past int4, node-postgres", () => pool().query("SELECT $1::int", ["2147483648"])],
    ["not a number for bigint, node-postgres", () => pool().query("SELECT 1 LIMIT $1::bigint", ["Infinity"])],
    ["past int4, Prisma raw", () => db().$queryRawUnsafe("SELECT $1::int", "99999999999")],
    ["past int4, Prisma where", () => db().project.findMany({ where: { id: 2 ** 31 } })],
    ["past int8, Prisma skip", () => db().project.findMany({ skip: 1e22 })],
  ])("%s: 422 with a JSON error", async (_name, statement) => {
    const res = errorResponse(await failure(statement));
    expect(res.status).toBe(422);
    expect((await res.json()).errors[0].message).toMatch(/out of range/);
  });
});

describe("ids in bodies past 2147483647", () => {
  let f: Awaited<ReturnType<typeof classifiableProject>>;
  beforeAll(async () => {
    f = await classifiableProject(1);
    const engine = await call("POST", "/engine/workflows", {
      token: f.owner.token,
      accept: "application/json",
      body: { workflow: { id: f.workflow.id } },
    });
    expect(engine.status, engine.text).toBe(201);
  });

  const big = ["2147483648", "9999999999", 2 ** 32, 9007199254740991];
  it.each(big)("a subject set chance keyed %s is a 422", async (id) => {
    const res = await call("POST", "/api/project_preferences/update_settings", {
      token: f.owner.token,
      body: {
        project_preferences: {
          user_id: String(f.owner.user.id),
          project_id: String(f.project.id),
          designator: { subject_set_chances: { [String(id)]: { [String(f.set.id)]: 1 } } },
        },
      },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toMatch(/subject_set_chances\.\d+/);
  });

  it.each(big)("an engine configuration for workflow %s is a 422", async (id) => {
    const res = await call("POST", "/engine/workflows", { token: f.owner.token, accept: "application/json", body: { workflow: { id } } });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toMatch(/id/);
  });

  it.each(big)("an effect adding to collection %s is a 422 (it saved, then failed every time it fired)", async (id) => {
    const res = await call("PUT", `/engine/workflows/${f.workflow.id}`, {
      token: f.owner.token,
      accept: "application/json",
      body: { workflow: { rules_config: [{ if: ["const", true], then: [{ action: "add_subject_to_collection", collection_id: id }] }] } },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toMatch(/collection_id/);
  });

  it.each(big)("a data request for user %s is a 422 (its export job failed)", async (id) => {
    const res = await call("POST", `/engine/workflows/${f.workflow.id}/data_requests`, {
      token: f.owner.token,
      accept: "application/json",
      body: { data_request: { requested_data: "user_reductions", user_id: id } },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toMatch(/user_id/);
  });

  it.each(["2147483648", "9999999999"])("a field guide item's icon %s is a 422", async (icon) => {
    const res = await call("POST", "/api/field_guides", {
      token: f.owner.token,
      body: { field_guides: { language: "en", items: [{ title: "t", content: "c", icon }], links: { project: String(f.project.id) } } },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toMatch(/icon/);
  });
});
