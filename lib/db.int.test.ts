import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

// Prisma's statements run prepared, at most DB_PREPARED_STATEMENTS per connection (least recently used out).

const prepared = async (tx: { $queryRawUnsafe: <T>(q: string) => Promise<T> }) =>
  (await tx.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'p%' ORDER BY name`)).map((r) => r.name);

describe("prepared Prisma statements", () => {
  afterEach(() => void delete process.env.DB_PREPARED_STATEMENTS);

  it("prepares each statement once per connection, keeps the most recently used within the limit, and runs evicted ones again", async () => {
    process.env.DB_PREPARED_STATEMENTS = "3";
    // Six statement shapes, each run on one connection (an interactive transaction), twice over: the
    // second round finds every shape deallocated by then and prepares it again.
    const shapes = [
      (tx: Prisma.TransactionClient) => tx.user.findMany({ where: { login: "nobody-a" } }),
      (tx: Prisma.TransactionClient) => tx.user.findMany({ where: { email: "nobody@example.test" } }),
      (tx: Prisma.TransactionClient) => tx.project.findMany({ where: { slug: "nobody/none" } }),
      (tx: Prisma.TransactionClient) => tx.workflow.findMany({ where: { displayName: "nothing" } }),
      (tx: Prisma.TransactionClient) => tx.subjectSet.findMany({ where: { displayName: "nothing" } }),
      (tx: Prisma.TransactionClient) => tx.organization.findMany({ where: { displayName: "nothing" } }),
    ];
    await db().$transaction(async (tx) => {
      const before = await prepared(tx);
      for (let round = 0; round < 2; round++) for (const shape of shapes) expect(await shape(tx)).toEqual([]);
      const after = await prepared(tx);
      expect(after.length).toBeLessThanOrEqual(3);
      // The last three shapes are the ones kept (whatever was prepared before on this connection is out).
      expect(after.filter((n) => !before.includes(n)).length).toBe(3);
    });
  });

  it("keeps a statement used over and over prepared (one entry, not one per call)", async () => {
    await db().$transaction(async (tx) => {
      const before = await prepared(tx);
      for (let i = 0; i < 20; i++) await tx.user.findMany({ where: { login: `nobody-${i}` } });
      const added = (await prepared(tx)).filter((n) => !before.includes(n));
      expect(added.length).toBeLessThanOrEqual(1);
    });
  });
});
