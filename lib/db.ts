import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { databaseUrl } from "@/lib/env";

// One pg pool and one Prisma client per process. Prisma serves CRUD; the pool serves set-based SQL on
// hot paths. Kept on globalThis so dev-mode hot reloads do not open new pools.
const g = globalThis as unknown as { quorumPool?: pg.Pool; quorumPrisma?: PrismaClient };

export function pool(): pg.Pool {
  g.quorumPool ??= new pg.Pool({ connectionString: databaseUrl(), max: Number(process.env.DB_POOL_SIZE ?? 10) });
  return g.quorumPool;
}

export function db(): PrismaClient {
  g.quorumPrisma ??= new PrismaClient({ adapter: new PrismaPg(pool()) });
  return g.quorumPrisma;
}

export async function closeDb(): Promise<void> {
  await g.quorumPrisma?.$disconnect();
  await g.quorumPool?.end();
  g.quorumPrisma = undefined;
  g.quorumPool = undefined;
}
