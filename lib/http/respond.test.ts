// JSON answers' compression marking, and errors as answers: a database outage is a 503 with Retry-After
// (never a 500), taken from the real errors the pg driver raises.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { databaseUnavailable, errorResponse, json, UNCOMPRESSED_JSON_BYTES } from "./respond";

async function realConnectionError(): Promise<unknown> {
  const client = new pg.Client({ host: "127.0.0.1", port: 1, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch (err) {
    return err;
  }
  throw new Error("connected to port 1");
}

describe("errorResponse", () => {
  it("answers an unreachable database with a JSON 503 and Retry-After", async () => {
    const err = await realConnectionError();
    expect(databaseUnavailable(err)).toBe(true);
    const res = errorResponse(err);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect((await res.json()).errors[0].message).toMatch(/database is unavailable/);
  });

  it.each([
    [{ code: "57P01", message: "terminating connection due to administrator command" }, true],
    [{ code: "57P03", message: "the database system is starting up" }, true],
    [new Error("timeout exceeded when trying to connect"), true],
    [{ message: "wrapped", cause: { code: "ECONNRESET" } }, true],
    [{ code: "P1001" }, true],
    [{ code: "23505", message: "duplicate key" }, false],
    [new Error("something else"), false],
  ])("%o is an outage: %s", (err, outage) => {
    expect(databaseUnavailable(err)).toBe(outage);
  });

  it.each([
    [{ code: "40001", message: "could not serialize access due to concurrent update" }, 409, /retry/],
    [{ code: "40P01", message: "deadlock detected" }, 409, /retry/],
    [{ code: "P2034" }, 409, /retry/],
    [{ code: "22P05", message: "unsupported Unicode escape sequence" }, 422, /cannot be stored/],
    [{ code: "22021", message: 'invalid byte sequence for encoding "UTF8": 0x00' }, 422, /cannot be stored/],
  ])("%o answers %i", async (err, status, message) => {
    const res = errorResponse(err);
    expect(res.status).toBe(status);
    expect((await res.json()).errors[0].message).toMatch(message);
  });

  it("keeps API errors and hides unexpected ones", async () => {
    expect(errorResponse(new AppError("rate_limited", "slow down", undefined, { "Retry-After": "9" })).headers.get("retry-after")).toBe(
      "9",
    );
    const orig = console.error;
    console.error = () => {};
    try {
      const res = errorResponse(new Error("secret detail"));
      expect(res.status).toBe(500);
      expect(JSON.stringify(await res.json())).not.toContain("secret");
    } finally {
      console.error = orig;
    }
  });
});

describe("json", () => {
  const text = (n: number) => ({ s: "x".repeat(n) }); // JSON.stringify adds 8 bytes: {"s":""}
  it.each<{ name: string; body: { s: string }; headers: Record<string, string>; cacheControl: string | null }>([
    { name: "a small answer", body: text(10), headers: {}, cacheControl: "no-transform" },
    { name: "one byte under the limit", body: text(UNCOMPRESSED_JSON_BYTES - 9), headers: {}, cacheControl: "no-transform" },
    { name: "an answer at the limit", body: text(UNCOMPRESSED_JSON_BYTES - 8), headers: {}, cacheControl: null },
    { name: "a large answer", body: text(100_000), headers: {}, cacheControl: null },
    {
      name: "a small answer with its own Cache-Control",
      body: text(10),
      headers: { "Cache-Control": "private, no-store" },
      cacheControl: "private, no-store, no-transform",
    },
    {
      name: "a small answer already no-transform",
      body: text(10),
      headers: { "Cache-Control": "public, No-Transform" },
      cacheControl: "public, No-Transform",
    },
    {
      name: "a large answer keeps its Cache-Control",
      body: text(UNCOMPRESSED_JSON_BYTES + 100),
      headers: { "Cache-Control": "public, max-age=5" },
      cacheControl: "public, max-age=5",
    },
  ])("$name", async ({ body, headers, cacheControl }) => {
    const res = json(body, 200, headers);
    expect(res.headers.get("cache-control")).toBe(cacheControl);
    expect(await res.json()).toEqual(body);
  });

  it("counts bytes, not characters", () => {
    const body = { s: "é".repeat(UNCOMPRESSED_JSON_BYTES / 2) }; // fewer characters than the limit, more bytes
    expect(JSON.stringify(body).length).toBeLessThan(UNCOMPRESSED_JSON_BYTES);
    expect(json(body).headers.get("cache-control")).toBeNull();
  });

  it("sends no body (and no marking) for 204 and 304", async () => {
    for (const status of [204, 304]) {
      const res = json({ a: 1 }, status);
      expect(res.status).toBe(status);
      expect(res.body).toBeNull();
      expect(res.headers.get("cache-control")).toBeNull();
    }
  });
});
