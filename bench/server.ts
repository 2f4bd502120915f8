// The production server for the HTTP benchmarks (bench:http, soak): built if needed, started as `npm start`
// runs it in production (WORKER=off, with one `npm run worker` beside it), and a keep-alive HTTP client
// over loopback that asks for what real clients ask for (browsers and python-requests accept gzip: an
// answer the server compresses costs it CPU, and the benchmark must pay that as they make it pay).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

export const ACCEPT = "application/vnd.api+json; version=1";

/** `next build` unless BENCH_BUILD=0 and a build exists. */
export function ensureBuild(tag: string): void {
  if (process.env.BENCH_BUILD === "0" && fs.existsSync(".next/BUILD_ID")) {
    console.error(`[${tag}] using the existing production build`);
    return;
  }
  console.error(`[${tag}] next build`);
  const build = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (build.status !== 0) throw new Error("next build failed");
}

/** One more `npm run worker` process (tsx scripts/worker.ts) against the env's DATABASE_URL. */
export function startWorkerProcess(env: NodeJS.ProcessEnv, cwd?: string): ChildProcess {
  return spawn(path.resolve("node_modules/.bin/tsx"), ["scripts/worker.ts"], {
    cwd,
    env: { ...env, PGAPPNAME: "quorum-worker" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Sends SIGTERM and waits for the exit. */
export function stopProcess(c: ChildProcess): Promise<unknown> | null {
  return c.exitCode === null && c.signalCode === null
    ? new Promise((r) => {
        c.once("exit", r);
        c.kill("SIGTERM");
      })
    : null;
}

export interface ProductionServer {
  port: number;
  server: ChildProcess;
  worker: ChildProcess;
  /** Stops both (SIGTERM, waits for their exit). */
  stop(): Promise<void>;
  /** method, path, bearer token, JSON body, Accept → status (the body is read and discarded). */
  request(method: string, urlPath: string, token?: string, body?: unknown, accept?: string): Promise<number>;
  /** Resolves when the server answers (up to 180 s). */
  ready(): Promise<void>;
}

/**
 * Starts `tsx scripts/start.ts` (WORKER=off) and `tsx scripts/worker.ts` against DATABASE_URL. `serverCommand`
 * replaces the first (a profiling run starts Next directly); `cwd` runs both in another checkout with a build
 * of its own (a comparison between two builds).
 */
export function startProductionServer(
  port: number,
  env: Record<string, string>,
  serverCommand?: [string, string[]],
  cwd?: string,
): ProductionServer {
  const serverEnv = { ...process.env, ...env, PORT: String(port), NODE_ENV: "production", WORKER: "off" } as NodeJS.ProcessEnv;
  const tsx = path.resolve("node_modules/.bin/tsx");
  const [cmd, args] = serverCommand ?? [tsx, ["scripts/start.ts"]];
  // Each process's connections carry its role as application_name (node-postgres reads PGAPPNAME), so a
  // benchmark can tell in pg_stat_activity who waits for whom.
  const server = spawn(cmd, args, { cwd, env: { ...serverEnv, PGAPPNAME: "quorum-web" }, stdio: ["ignore", "ignore", "inherit"] });
  const worker = startWorkerProcess(serverEnv, cwd);
  const children = [server, worker];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  const request = (method: string, urlPath: string, token?: string, body?: unknown, accept = ACCEPT) =>
    new Promise<number>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method,
          path: urlPath,
          agent,
          headers: {
            accept,
            "accept-encoding": "gzip, deflate",
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });

  return {
    port,
    server,
    worker,
    request,
    async ready() {
      const deadline = Date.now() + 180_000;
      while (Date.now() < deadline) {
        const status = await request("GET", "/api/bench-ready").catch(() => 0);
        if (status === 404) return;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error("the server did not start within 180 s");
    },
    async stop() {
      agent.destroy();
      await Promise.all(children.map(stopProcess));
    },
  };
}
