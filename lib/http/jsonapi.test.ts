import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { checkIfMatch, etagFor, ifNoneMatchHits, pageMeta, parsePaging } from "./jsonapi";
import { parseIdValue, parsePathId } from "@/lib/text/params";

const url = (q: string) => new URL(`http://x/api/projects?${q}`);

describe("parsePaging", () => {
  it.each([
    ["", { page: 1, pageSize: 20 }],
    ["page=3", { page: 3, pageSize: 20 }],
    ["page_size=5", { page: 1, pageSize: 5 }],
    ["page_size=100", { page: 1, pageSize: 100 }],
    ["page_size=101", { page: 1, pageSize: 100 }],
    ["page_size=100000", { page: 1, pageSize: 100 }],
    ["page=&page_size=", { page: 1, pageSize: 20 }],
  ])("%s → %o", (q, want) => expect(parsePaging(url(q))).toEqual(want));

  it.each(["page_size=0", "page=0", "page=-1", "page_size=-5", "page=abc", "page_size=1e3", "page=2.5"])("%s → 422", (q) => {
    expect(() => parsePaging(url(q))).toThrow(expect.objectContaining({ code: "invalid" }));
  });
});

describe("pageMeta", () => {
  it.each([
    [1, 3, 7, { page_count: 3, previous_page: null, next_page: 2 }],
    [2, 3, 7, { page_count: 3, previous_page: 1, next_page: 3 }],
    [3, 3, 7, { page_count: 3, previous_page: 2, next_page: null }],
    [1, 20, 0, { page_count: 1, previous_page: null, next_page: null }],
    [9, 3, 7, { page_count: 3, previous_page: 3, next_page: null }],
  ])("page %i size %i of %i", (page, pageSize, count, want) => {
    const meta = pageMeta("projects", url(`beta=true&page=${page}&http_cache=true`), { page, pageSize }, count, []).projects;
    expect(meta).toMatchObject({ page, page_size: pageSize, count, ...want });
    expect(meta.first_href).toBe(`/projects?beta=true&page=1&page_size=${pageSize}`);
    expect(meta.next_href).toBe(want.next_page ? `/projects?beta=true&page=${want.next_page}&page_size=${pageSize}` : null);
    expect(meta.count_source).toBe("exact");
  });

  // With an estimate the count may be off either way: next_page follows whether the page was full.
  it.each([
    [
      "an estimate above the rows: the last page ends paging",
      5,
      100,
      50_000,
      false,
      { page_count: 500, next_page: null, previous_page: 4 },
    ],
    ["an estimate below the rows: paging goes on", 7, 100, 300, true, { page_count: 8, next_page: 8, previous_page: 6 }],
    ["a full page with more", 1, 20, 12_000, true, { page_count: 600, next_page: 2, previous_page: null }],
  ] as const)("%s", (_name, page, pageSize, count, more, want) => {
    const meta = pageMeta("projects", url(`page=${page}`), { page, pageSize }, count, [], { more, source: "estimate" }).projects;
    expect(meta).toMatchObject({ page, count, count_source: "estimate", ...want });
    expect(meta.next_href).toBe(want.next_page ? `/projects?page=${want.next_page}&page_size=${pageSize}` : null);
  });
});

describe("ETags", () => {
  const row = { id: 4, updatedAt: new Date("2024-01-01T00:00:00Z") };
  const tag = etagFor("projects", row);
  const req = (h: Record<string, string>) => new Request("http://x", { headers: h });

  it("change with updated_at and type", () => {
    expect(etagFor("projects", { ...row, updatedAt: new Date("2024-01-01T00:00:01Z") })).not.toBe(tag);
    expect(etagFor("users", row)).not.toBe(tag);
    expect(etagFor("projects", { ...row })).toBe(tag);
  });

  it.each([
    [{}, "precondition_required"],
    [{ "if-match": '"nope"' }, "precondition_failed"],
    [{ "if-match": 'W/"nope"' }, "precondition_failed"],
    [{ "if-match": "" }, "precondition_required"],
  ])("If-Match %o → %s", (h, code) => {
    expect(() => checkIfMatch(req(h), tag)).toThrow(AppError);
    try {
      checkIfMatch(req(h), tag);
    } catch (e) {
      expect((e as AppError).code).toBe(code);
    }
  });

  it.each([tag, `W/${tag}`, `"a", ${tag}`, "*"])("If-Match %s passes", (h) =>
    expect(() => checkIfMatch(req({ "if-match": h }), tag)).not.toThrow(),
  );
  it.each([
    [tag, true],
    [`W/${tag}`, true],
    ['"x"', false],
  ])("If-None-Match %s → %s", (h, hit) => expect(ifNoneMatchHits(req({ "if-none-match": h }), tag)).toBe(hit));
});

describe("ids", () => {
  it.each(["1", "42", "2147483647"])("path id %s parses", (s) => expect(parsePathId(s, "projects")).toBe(Number(s)));
  it.each(["0", "-1", "abc", "1.5", "01", "2147483648", "", " 1"])("path id %j is 404", (s) =>
    expect(() => parsePathId(s, "projects")).toThrow(expect.objectContaining({ code: "not_found" })),
  );
  it.each([
    [1, 1],
    ["7", 7],
    [" 8 ", 8],
  ])("value id %j → %i", (v, n) => expect(parseIdValue(v, "x")).toBe(n));
  it.each([null, undefined, -1, 0, "a", {}, [], 1.5, true])("value id %j is 422", (v) =>
    expect(() => parseIdValue(v, "x")).toThrow(expect.objectContaining({ code: "invalid" })),
  );
});
