// The HTTP client of bench:lists (bench/http-lists.ts): keep-alive GETs over loopback with gzip, as real
// clients send, and the `last_id` walk that follows next_href (or the engine's Link header). Node's own
// modules only, so the walk's process (bench/walk-process.ts) stays small: a client process holding the
// dataset's pool and the app's modules (tens of MB) spent 10-40 ms in each full collection of its own heap,
// which landed in the middle of about every 48th page and was counted as the server's time.
import http from "node:http";
import zlib from "node:zlib";

export interface Answer {
  status: number;
  body: string;
  link: string | null;
}

export interface WalkPages {
  ms: number[];
  rows: number;
  last_path: string;
  slow_pages: { page: number; path: string; ms: number; at: number }[];
}

export function listClient(port: number, accept: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

  /** GET with the body read (and gunzipped): the walk needs next_href. */
  function get(path: string, token?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "GET",
          path,
          agent,
          headers: {
            accept: path.startsWith("/engine") ? "application/json" : accept,
            "accept-encoding": "gzip, deflate",
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => {
            const raw = Buffer.concat(chunks);
            const enc = res.headers["content-encoding"];
            const body = (enc === "gzip" ? zlib.gunzipSync(raw) : enc === "deflate" ? zlib.inflateSync(raw) : raw).toString("utf8");
            resolve({ status: res.statusCode ?? 0, body, link: (res.headers.link as string | undefined) ?? null });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end();
    });
  }

  async function timedCall(path: string, token: string | undefined, expected: number): Promise<{ ms: number; a: Answer }> {
    const t = performance.now();
    const a = await get(path, token);
    const ms = performance.now() - t;
    if (a.status !== expected) throw new Error(`GET ${path}: ${a.status} ${a.body.slice(0, 300)}`);
    return { ms, a };
  }

  /** Follows the next page from `start` (meta next_href, or the Link header) for up to `pages` pages. */
  async function walk(start: string, token: string | undefined, pages: number): Promise<WalkPages> {
    const ms: number[] = [];
    const slow: WalkPages["slow_pages"] = [];
    let path: string | null = start;
    let rows = 0;
    let last = "";
    while (path && ms.length < pages) {
      const { ms: t, a }: { ms: number; a: Answer } = await timedCall(path, token, 200);
      // Which pages: a page slow again in a second run is the data (cold reads, a bad plan); one slow once is the machine.
      if (t >= 50) slow.push({ page: ms.length, path, ms: Math.round(t * 10) / 10, at: Date.now() });
      ms.push(t);
      const body = JSON.parse(a.body);
      if (Array.isArray(body)) {
        rows += body.length;
        path = a.link ? /<([^>]+)>/.exec(a.link)![1] : null;
      } else {
        const type = Object.keys(body.meta)[0];
        rows += body[type].length;
        const next = body.meta[type].next_href as string | null;
        path = next ? `/api${next}` : null;
      }
      last = path ?? last;
    }
    return { ms, rows, last_path: last, slow_pages: slow };
  }

  return { get, timedCall, walk, close: () => agent.destroy() };
}
