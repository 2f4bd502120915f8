import { describe, expect, it } from "vitest";
import { api, call } from "./http";

/**
 * The JSON-API contract every resource definition must keep: headers, envelope, paging, include, sort,
 * ETag/If-Match, error statuses and bodies, and that a rejected request changes nothing. Records served
 * under a parent's path (a project's pages: /projects/<id>/pages) name that path as `base` wherever a
 * fixture returns records; paging hrefs must then stay under it.
 */
export interface ContractFixture {
  /** Plural type, and the collection path under /api unless a fixture names its `base`, e.g. "projects". */
  type: string;
  /** A record `writer` may edit and `reader` may only see; `stranger` is another signed-in user. */
  setup(): Promise<{ base?: string; id: number; writer: string; reader: string; stranger: string }>;
  /** Creates n records matched by the returned list query (e.g. "owner=bob", or ""), visible to `token`. */
  seedMany(n: number): Promise<{ base?: string; query: string; token?: string }>;
  /** A valid create body's record (under the type key), for `writer`; omit when the resource has no create. */
  createRecord?(): Promise<{ base?: string; record: Record<string, unknown>; token: string }>;
  /** Valid update attributes; omit when the resource has no update. */
  update?: Record<string, unknown>;
  /** An attribute with a wrong type, for 422. */
  invalidUpdate?: Record<string, unknown>;
  /** A record only `insider` may see (404 to strangers); omit when every record is public. */
  privateRecord?(): Promise<{ base?: string; id: number; insider: string; stranger: string }>;
  destroy?: boolean;
  /** Status a signed-in user with no role gets when editing setup()'s record: 404 when it is private to them. */
  strangerEditStatus?: number;
  /** The list is walked by id (ResourceDef.keyset): next_href carries last_id, not a page number. */
  keyset?: boolean;
  includes: string[];
  sortable: string[];
}

const errorShape = (body: any) => {
  expect(Array.isArray(body?.errors)).toBe(true);
  expect(typeof body.errors[0].message).toBe("string");
  expect(body.errors[0].message.length).toBeGreaterThan(0);
};

/** A list URL: the base path with the fixture's query (possibly empty) and more parameters. */
const withQuery = (base: string, query: string, extra: string) => `${base}?${[query, extra].filter(Boolean).join("&")}`;

export function resourceContract(f: ContractFixture) {
  const path = `/${f.type}`;

  describe(`${f.type}: JSON-API contract`, () => {
    it("needs the versioned Accept header (404 JSON without it)", async () => {
      const { base = path, id, reader } = await f.setup();
      for (const accept of [null, "application/json", "application/vnd.api+json; version=2"]) {
        const list = await api.get(base, { token: reader, accept });
        expect(list.status).toBe(404);
        errorShape(list.body);
        expect((await api.get(`${base}/${id}`, { token: reader, accept })).status).toBe(404);
      }
      const ok = await api.get(`${base}/${id}`, { token: reader });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toBe("application/vnd.api+json; version=1");
    });

    it("lists in the envelope with link templates and complete paging meta", async () => {
      const { base = path, query, token } = await f.seedMany(7);
      const res = await api.get(withQuery(base, query, `page_size=3`), { token });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["links", "meta", f.type].sort());
      expect(Array.isArray(res.body[f.type])).toBe(true);
      expect(res.body[f.type]).toHaveLength(3);
      for (const r of res.body[f.type]) {
        expect(typeof r.id).toBe("string");
        expect(r.href).toBe(`${base}/${r.id}`);
        expect(typeof r.links).toBe("object");
      }
      for (const key of Object.keys(res.body.links)) expect(key.startsWith(`${f.type}.`)).toBe(true);
      const meta = res.body.meta[f.type];
      expect(meta).toMatchObject({
        page: 1,
        page_size: 3,
        count: 7,
        include: [],
        page_count: 3,
        previous_page: null,
        next_page: 2,
        previous_href: null,
      });
      expect(meta.first_href.startsWith(`${base}?`)).toBe(true);
      expect(meta.first_href).toMatch(/page=1/);
      expect(meta.last_href).toMatch(/page=3/);
      expect(meta.next_href.startsWith(`${base}?`)).toBe(true);
      // A keyset list's next page is after the page's last id, never an offset.
      if (f.keyset) {
        expect(meta.next_href).toMatch(/last_id=\d+/);
        expect(meta.next_href).not.toMatch(/[?&]page=/);
      } else expect(meta.next_href).toMatch(/page=2/);
    });

    it("follows next_href (relative to /api) until null and sees every record once", async () => {
      const { base = path, query, token } = await f.seedMany(7);
      const seen: string[] = [];
      let href: string | null = withQuery(base, query, `page_size=3`);
      let pages = 0;
      while (href && pages < 10) {
        const res: any = await api.get(href, { token });
        expect(res.status).toBe(200);
        seen.push(...res.body[f.type].map((r: { id: string }) => r.id));
        href = res.body.meta[f.type].next_href;
        pages++;
      }
      expect(pages).toBe(3);
      expect(new Set(seen).size).toBe(7);
      const last = await api.get(withQuery(base, query, `page_size=3&page=3`), { token });
      expect(last.body.meta[f.type]).toMatchObject({ previous_page: 2, next_page: null, next_href: null });
    });

    it("defaults page_size to 20, clamps it at 100 and rejects 0 and junk with 422", async () => {
      const { base = path, query, token } = await f.seedMany(1);
      expect((await api.get(withQuery(base, query, ""), { token })).body.meta[f.type].page_size).toBe(20);
      expect((await api.get(withQuery(base, query, `page_size=1000`), { token })).body.meta[f.type].page_size).toBe(100);
      for (const bad of ["page_size=0", "page_size=-1", "page_size=abc", "page=0", "page=abc", "page=1.5"]) {
        const res = await api.get(withQuery(base, query, `${bad}`), { token });
        expect(res.status, bad).toBe(422);
        errorShape(res.body);
      }
      const beyond = await api.get(withQuery(base, query, `page=50`), { token });
      expect(beyond.status).toBe(200);
      expect(beyond.body[f.type]).toEqual([]);
    });

    it("sorts by a field, descending with '-', and rejects unknown sort fields", async () => {
      const { base = path, query, token } = await f.seedMany(4);
      const asc = (await api.get(withQuery(base, query, `sort=id`), { token })).body[f.type].map((r: any) => Number(r.id));
      const desc = (await api.get(withQuery(base, query, `sort=-id`), { token })).body[f.type].map((r: any) => Number(r.id));
      expect(asc).toEqual([...asc].sort((a, b) => a - b));
      expect(desc).toEqual([...asc].reverse());
      for (const field of f.sortable) expect((await api.get(withQuery(base, query, `sort=-${field}`), { token })).status).toBe(200);
      const bad = await api.get(withQuery(base, query, `sort=no_such_field`), { token });
      expect(bad.status).toBe(422);
      errorShape(bad.body);
    });

    it("includes declared links into `linked` and rejects unknown includes with 422", async () => {
      const { base = path, id, reader } = await f.setup();
      for (const inc of f.includes) {
        const res = await api.get(`${base}/${id}?include=${inc}`, { token: reader });
        expect(res.status, inc).toBe(200);
        expect(res.body.linked, inc).toBeDefined();
        for (const recs of Object.values(res.body.linked) as any[]) {
          // Linked records point back at their parent record (checked for top-level resources).
          if (base === path) for (const r of recs) expect(r.links.linked).toEqual({ href: `${base}/${id}`, id: String(id), type: f.type });
        }
      }
      for (const url of [`${base}/${id}?include=nope`, `${base}?include=nope`]) {
        const res = await api.get(url, { token: reader });
        expect(res.status).toBe(422);
        errorShape(res.body);
      }
    });

    it("shows with ETag and Last-Modified, answers 304 to a matching If-None-Match (weak too)", async () => {
      const { base = path, id, reader } = await f.setup();
      const res = await api.get(`${base}/${id}?http_cache=true`, { token: reader });
      expect(res.status).toBe(200);
      expect(res.body[f.type]).toHaveLength(1);
      expect(res.body[f.type][0].id).toBe(String(id));
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]+"$/);
      expect(new Date(res.headers.get("last-modified")!).getTime()).not.toBeNaN();
      expect((await api.get(`${base}/${id}`, { token: reader, headers: { "if-none-match": etag } })).status).toBe(304);
      expect((await api.get(`${base}/${id}`, { token: reader, headers: { "if-none-match": `W/${etag}` } })).status).toBe(304);
      expect((await api.get(`${base}/${id}`, { token: reader, headers: { "if-none-match": '"other"' } })).status).toBe(200);
    });

    it("answers 404 with a JSON error for ids that cannot exist", async () => {
      const { base = path, reader } = await f.setup();
      for (const bad of ["abc", "-1", "0", "1.5", "99999999", "99999999999999999999"]) {
        const res = await api.get(`${base}/${bad}`, { token: reader });
        expect(res.status, bad).toBe(404);
        errorShape(res.body);
      }
    });

    if (f.privateRecord) {
      it("hides private records: 404 on show and absent from lists for those without a role", async () => {
        const { base = path, id, insider, stranger } = await f.privateRecord!();
        expect((await api.get(`${base}/${id}`, { token: insider })).status).toBe(200);
        for (const token of [stranger, undefined]) {
          const res = await api.get(`${base}/${id}`, { token });
          expect(res.status).toBe(404);
          errorShape(res.body);
          const list = await api.get(`${base}?id=${id}`, { token });
          // A top-level list leaves the record out; under a parent they cannot see, the list itself is a 404.
          if (base === path) expect(list.body[f.type]).toEqual([]);
          else expect(list.status).toBe(404);
          if (f.update)
            expect((await api.put(`${base}/${id}`, { [f.type]: f.update }, { token, headers: { "if-match": "*" } })).status).toBe(
              token ? 404 : 401,
            );
        }
      });
    }

    if (f.update) {
      it("edits with If-Match: 428 without, 412 when stale, weak tags accepted, 200 with the record", async () => {
        const { base = path, id, writer } = await f.setup();
        const etag = (await api.get(`${base}/${id}`, { token: writer })).headers.get("etag")!;
        const missing = await api.put(`${base}/${id}`, { [f.type]: f.update }, { token: writer });
        expect(missing.status).toBe(428);
        errorShape(missing.body);
        const stale = await api.put(`${base}/${id}`, { [f.type]: f.update }, { token: writer, headers: { "if-match": '"stale"' } });
        expect(stale.status).toBe(412);
        errorShape(stale.body);
        expect((await api.get(`${base}/${id}`, { token: writer })).headers.get("etag")).toBe(etag);
        const ok = await api.put(
          `${base}/${id}`,
          { [f.type]: f.update, http_cache: true },
          { token: writer, headers: { "if-match": `W/${etag}` } },
        );
        expect(ok.status).toBe(200);
        expect(ok.body[f.type][0]).toMatchObject(f.update!);
        const newTag = ok.headers.get("etag");
        expect(newTag).toBeTruthy();
        expect(newTag).not.toBe(etag);
        // The old tag is now stale.
        expect((await api.put(`${base}/${id}`, { [f.type]: f.update }, { token: writer, headers: { "if-match": etag } })).status).toBe(412);
      });

      it("rejects bad edits with a 4xx JSON error and changes nothing", async () => {
        const { base = path, id, writer, reader, stranger } = await f.setup();
        const before = await api.get(`${base}/${id}`, { token: writer });
        const etag = before.headers.get("etag")!;
        const h = { "if-match": etag };
        const cases: [string, Promise<{ status: number; body: any }>, number][] = [
          ["malformed JSON", call("PUT", `/api${base}/${id}`, { token: writer, raw: `{"${f.type}": {`, headers: h }), 400],
          [
            "wrong content type",
            call("PUT", `/api${base}/${id}`, { token: writer, raw: "x=1", contentType: "text/plain", headers: h }),
            415,
          ],
          [
            "no content type",
            call("PUT", `/api${base}/${id}`, { token: writer, raw: JSON.stringify({ [f.type]: f.update }), contentType: null, headers: h }),
            415,
          ],
          ["empty body", call("PUT", `/api${base}/${id}`, { token: writer, raw: "", headers: h }), 422],
          ["array body", api.put(`${base}/${id}`, [f.update], { token: writer, headers: h }), 422],
          ["unknown root key", api.put(`${base}/${id}`, { [f.type]: f.update, extra: 1 }, { token: writer, headers: h }), 422],
          ["wrong root key", api.put(`${base}/${id}`, { things: f.update }, { token: writer, headers: h }), 422],
          ["unknown attribute", api.put(`${base}/${id}`, { [f.type]: { no_such_attribute: 1 } }, { token: writer, headers: h }), 422],
          ["read-only id", api.put(`${base}/${id}`, { [f.type]: { id: "5" } }, { token: writer, headers: h }), 422],
          [
            "read-only created_at",
            api.put(`${base}/${id}`, { [f.type]: { created_at: "2020-01-01T00:00:00Z" } }, { token: writer, headers: h }),
            422,
          ],
          ["wrong type", api.put(`${base}/${id}`, { [f.type]: f.invalidUpdate }, { token: writer, headers: h }), 422],
          ["anonymous", api.put(`${base}/${id}`, { [f.type]: f.update }, { headers: h }), 401],
          ["bad token", api.put(`${base}/${id}`, { [f.type]: f.update }, { token: "not.a.jwt", headers: h }), 401],
          ["reader without edit rights", api.put(`${base}/${id}`, { [f.type]: f.update }, { token: reader, headers: h }), 403],
          ["another user", api.put(`${base}/${id}`, { [f.type]: f.update }, { token: stranger, headers: h }), f.strangerEditStatus ?? 403],
        ];
        for (const [name, p, status] of cases) {
          const res = await p;
          expect(res.status, name).toBe(status);
          errorShape(res.body);
        }
        const after = await api.get(`${base}/${id}`, { token: writer });
        expect(after.headers.get("etag")).toBe(etag);
        expect(after.body[f.type][0]).toEqual(before.body[f.type][0]);
      });
    }

    if (f.createRecord) {
      it("creates: 201 with the record in the envelope, ETag and Last-Modified", async () => {
        const { base = path, record, token } = await f.createRecord!();
        const res = await api.post(base, { [f.type]: record, http_cache: true }, { token });
        expect(res.status).toBe(201);
        expect(res.body[f.type]).toHaveLength(1);
        expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]+"$/);
        expect(res.headers.get("last-modified")).toBeTruthy();
        const id = res.body[f.type][0].id;
        expect((await api.get(`${base}/${id}`, { token })).status).toBe(200);
      });

      it("rejects bad creates with a 4xx JSON error and creates nothing", async () => {
        const { base = path, record, token } = await f.createRecord!();
        const count = async () => (await api.get(`${base}?page_size=1`, { token })).body.meta[f.type].count;
        const before = await count();
        const cases: [string, Promise<{ status: number; body: any }>, number][] = [
          ["anonymous", api.post(base, { [f.type]: record }), 401],
          ["malformed JSON", call("POST", `/api${base}`, { token, raw: "{nope" }), 400],
          ["no content type", call("POST", `/api${base}`, { token, raw: JSON.stringify({ [f.type]: record }), contentType: null }), 415],
          ["unknown root key", api.post(base, { [f.type]: record, other: {} }, { token }), 422],
          ["record not an object", api.post(base, { [f.type]: "x" }, { token }), 422],
          ["unknown attribute", api.post(base, { [f.type]: { ...record, bogus: true } }, { token }), 422],
          ["read-only id", api.post(base, { [f.type]: { ...record, id: "1" } }, { token }), 422],
        ];
        for (const [name, p, status] of cases) {
          const res = await p;
          expect(res.status, name).toBe(status);
          errorShape(res.body);
        }
        expect(await count()).toBe(before);
      });
    }

    if (f.destroy) {
      it("destroys with If-Match: 428 without, 412 stale, 403 for non-editors, then 204 and gone", async () => {
        const { base = path, id, writer, reader } = await f.setup();
        const etag = (await api.get(`${base}/${id}`, { token: writer })).headers.get("etag")!;
        expect((await api.delete(`${base}/${id}`, { token: writer })).status).toBe(428);
        expect((await api.delete(`${base}/${id}`, { token: writer, headers: { "if-match": '"old"' } })).status).toBe(412);
        expect((await api.delete(`${base}/${id}`, { token: reader, headers: { "if-match": etag } })).status).toBe(403);
        expect((await api.delete(`${base}/${id}`, { headers: { "if-match": etag } })).status).toBe(401);
        expect((await api.get(`${base}/${id}`, { token: writer })).status).toBe(200);
        // GET and DELETE with a JSON content type and an empty body are normal.
        const res = await call("DELETE", `/api${base}/${id}`, {
          token: writer,
          contentType: "application/json",
          headers: { "if-match": etag },
        });
        expect(res.status).toBe(204);
        expect((await api.get(`${base}/${id}`, { token: writer })).status).toBe(404);
      });
    }
  });
}
