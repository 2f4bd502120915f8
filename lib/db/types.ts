import type { Prisma } from "@/lib/generated/prisma/client";

/** A Prisma transaction client: what writes in one transaction take. */
export type Tx = Prisma.TransactionClient;
/** A Prisma where clause, built by read scopes and filters. */
export type Where = Record<string, unknown>;
