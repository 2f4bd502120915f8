// One `last_id` walk of bench:lists in a process of its own (bench/list-client.ts says why): forked by
// bench/http-lists.ts, given { port, accept, start, token, pages } as its one message, it answers the
// walk's page times and exits.
import { listClient, type WalkPages } from "./list-client";

interface WalkOrder {
  port: number;
  accept: string;
  start: string;
  token?: string;
  pages: number;
}

/**
 * Untimed first: a fresh process's first requests pay for loading and compiling its client code and opening
 * its connection, and the server's first `last_id` page of a list for compiling that query's shape (Prisma's
 * query plan, once per server process). The first page's measurement is warmed up the same way.
 */
async function warmUp(client: ReturnType<typeof listClient>, order: WalkOrder): Promise<void> {
  for (let i = 0; i < 30; i++) await client.timedCall(WARM_UP_PATH, order.token, 404);
  await client.walk(order.start, order.token, 3);
}
const WARM_UP_PATH = "/api/bench-noop";

process.once("message", (order: WalkOrder) => {
  const client = listClient(order.port, order.accept);
  warmUp(client, order)
    .then(() => client.walk(order.start, order.token, order.pages))
    .then((result: WalkPages) => process.send!({ ok: true, result }, () => process.exit(0)))
    .catch((err: Error) => process.send!({ ok: false, error: err.message }, () => process.exit(1)));
});
