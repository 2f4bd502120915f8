// Text PostgreSQL cannot store (a NUL character, in text or as JSON's \u0000 in jsonb) is the client's
// input: errorResponse answers it 422, whichever way the statement was made (node-postgres or Prisma).
import { describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import { signedInUser } from "@/test/factories";
import { errorResponse } from "./respond";
import { failure } from "@/test/failure";

describe("text the database cannot store", () => {
  it.each([
    ["\\u0000 in jsonb, node-postgres", () => pool().query("SELECT $1::jsonb", ['"a\\u0000"'])],
    ["a NUL in text, node-postgres", () => pool().query("SELECT $1::text", ["a\u0000b"])],
    ["\\u0000 in jsonb, Prisma raw", () => db().$queryRawUnsafe("SELECT $1::jsonb", '"a\\u0000"')],
    [
      "a NUL in text, Prisma update",
      async () => db().user.update({ where: { id: (await signedInUser()).user.id }, data: { displayName: "a\u0000b" } }),
    ],
  ])("%s: 422 with a JSON error", async (_name, statement) => {
    const res = errorResponse(await failure(statement));
    expect(res.status).toBe(422);
    expect((await res.json()).errors[0].message).toMatch(/cannot be stored/);
  });
});
