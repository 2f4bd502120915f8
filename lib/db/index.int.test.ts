import { afterEach, describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

// Prisma's statements run prepared, at most DB_PREPARED_STATEMENTS per connection (least recently used out).

const prepared = async (tx: { $queryRawUnsafe: <T>(q: string) => Promise<T> }) =>
  (await tx.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'p%' ORDER BY name`)).map(
    (r) => r.name,
  );

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

  it("a statement evicted inside a failed transaction is still usable after the rollback", async () => {
    process.env.DB_PREPARED_STATEMENTS = "1";
    const client = await pool().connect();
    // Config objects with values, as Prisma's adapter sends them.
    const a = { text: "SELECT $1::int + 1 AS n", values: [1] };
    const b = { text: "SELECT $1::int + 2 AS n", values: [1] };
    try {
      await client.query("BEGIN");
      expect((await client.query(a)).rows[0].n).toBe(2);
      await expect(client.query("SELECT 1/0")).rejects.toThrow();
      // b evicts a: its DEALLOCATE fails in the aborted transaction, as b does.
      await expect(client.query(b)).rejects.toThrow();
      await client.query("ROLLBACK");
      expect((await client.query(a)).rows[0].n).toBe(2);
      expect((await client.query(b)).rows[0].n).toBe(3);
      expect((await client.query(a)).rows[0].n).toBe(2);
    } finally {
      client.release();
    }
  });
});
