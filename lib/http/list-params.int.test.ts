// Every list answers out-of-range numbers and Object.prototype names in its generic parameters with a 422
// naming the parameter, never a 500. Before: `sort=constructor` (any name Object.prototype has) found
// Object's own property and handed Prisma a function as the column (71 answers of 500 in the probe), and
// `page=99999999999999999999` an offset Prisma cannot fit in 64 bits (24).
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "@/test/http";
import { classifiableProject } from "@/test/factories";
import { MAX_PAGE } from "./jsonapi";

const APP = path.resolve(import.meta.dirname, "../../app");
/** The list routes: GET on a static path under /api (no [id] segments). */
const LISTS = fs
  .readdirSync(path.join(APP, "api"), { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith("route.ts") && !f.includes("["))
  .map((f) => `/api/${path.dirname(f).split(path.sep).join("/")}`)
  .sort();

const PROTO = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "prototype"];
let token: string;
/** Paged lists answering a plain GET (others need a filter first, e.g. the subject queue's workflow_id). */
const paged: string[] = [];
/** Those of them that take `sort` (an unknown field is a 422 there). */
const sorted: string[] = [];

beforeAll(async () => {
  const { owner } = await classifiableProject(1);
  token = owner.token;
  for (const list of LISTS) {
    const res = await call("GET", list, { token });
    if (res.status !== 200 || !res.body?.meta) continue;
    paged.push(list);
    if ((await call("GET", `${list}?sort=no_such_field`, { token })).status === 422) sorted.push(list);
  }
  expect(paged.length).toBeGreaterThan(25);
  expect(sorted.length).toBeGreaterThan(25);
}, 60_000);

describe("sort names", () => {
  it.each(PROTO.flatMap((name) => [name, `-${name}`, `id,${name}`]))("sort=%s is a 422 naming the field on every list", async (sort) => {
    for (const list of sorted) {
      const res = await call("GET", `${list}?sort=${encodeURIComponent(sort)}`, { token });
      expect(res.status, `${list}: ${res.text.slice(0, 200)}`).toBe(422);
      expect(res.body.errors[0].message, list).toMatch(/sort/);
    }
  });
});

describe("page numbers", () => {
  it.each([
    ["page=99999999999999999999", /page must be/],
    ["page=9007199254740993", /page must be/],
    [`page=${MAX_PAGE + 1}`, /page must be/],
    ["page=1e309", /page must be/],
    ["page=-1", /page must be/],
    ["page=0", /page must be/],
    ["page_size=0", /page_size must be/],
    ["page_size=-99999999999999999999", /page_size must be/],
    ["page_size=1e3", /page_size must be/],
  ])("%s is a 422 on every list", async (query, message) => {
    for (const list of paged) {
      const res = await call("GET", `${list}?${query}`, { token });
      expect(res.status, `${list}: ${res.text.slice(0, 200)}`).toBe(422);
      expect(res.body.errors[0].message, list).toMatch(message);
    }
  });

  it("the last page allowed is an empty page; a page size of any size is clamped to 100", async () => {
    for (const list of paged) {
      const last = await call("GET", `${list}?page=${MAX_PAGE}`, { token });
      expect(last.status, `${list}: ${last.text.slice(0, 200)}`).toBe(200);
      const huge = await call("GET", `${list}?page_size=99999999999999999999`, { token });
      expect(huge.status, `${list}: ${huge.text.slice(0, 200)}`).toBe(200);
      const meta = Object.values(huge.body.meta ?? {})[0] as { page_size?: number } | undefined;
      if (meta?.page_size !== undefined) expect(meta.page_size, list).toBe(100);
    }
  });
});

describe("the engine's monitoring lists", () => {
  it.each([
    ["actions?page_size=-2147483649", 422],
    ["actions?page_size=-99999999999999999999", 422],
    ["actions?page_size=-1e309", 422],
    ["actions?page_size=99999999999999999999", 200],
    ["actions?before_id=99999999999999999999", 422],
    ["reductions?page=1e309", 422],
    ["reductions?page=1e20", 422],
    ["reductions?page=99999999999999999999", 422],
    [`reductions?page=${MAX_PAGE}&page_size=100`, 200],
    ["reductions?page_size=0", 422],
  ])("%s → %i", async (query, status) => {
    const { owner, workflow } = await classifiableProject(1);
    const engine = await call("POST", "/engine/workflows", {
      token: owner.token,
      accept: "application/json",
      body: { workflow: { id: workflow.id } },
    });
    expect(engine.status, engine.text).toBe(201);
    const res = await call("GET", `/engine/workflows/${workflow.id}/${query}`, { token: owner.token, accept: "application/json" });
    expect(res.status, res.text.slice(0, 200)).toBe(status);
    if (status === 422) expect(res.body.errors[0].message).toMatch(/page|before_id/);
  });
});
