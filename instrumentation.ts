// Next.js start-up hook: the server process also runs the background job worker (set WORKER=off to run
// workers separately with `npm run worker`).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Client addresses from the socket unless TRUST_PROXY says otherwise (scripts/start.ts preloads the
    // same edge; installing again is a no-op, and covers a server started another way).
    const { installPeerAddress } = await import("./lib/net/peer-address");
    installPeerAddress();
    if (process.env.GC_PAUSE_LOG_MS) (await import("./lib/log/gc-pauses")).logGcPauses();
  }
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.WORKER === "off" || !process.env.DATABASE_URL) return;
  const { startWorker } = await import("./lib/jobs/worker");
  await startWorker();
}
