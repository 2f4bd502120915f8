import fs from "node:fs";
import path from "node:path";
import { clientAddressHeader } from "@/lib/http/peer-address";

// Calls the app's route handlers in-process, routed exactly as Next's app/ directory routes them, so
// integration tests read like HTTP without a server or a build.

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
interface Route {
  pattern: RegExp;
  names: string[];
  catchAll: string | null;
  file: string;
  rank: number[];
}

const APP = path.resolve(import.meta.dirname, "../app");

function collectRoutes(dir: string, segments: string[] = []): Route[] {
  const out: Route[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...collectRoutes(path.join(dir, entry.name), [...segments, entry.name]));
    else if (entry.name === "route.ts") {
      const names: string[] = [];
      let catchAll: string | null = null;
      const parts = segments.map((s) => {
        const all = /^\[\.\.\.(\w+)\]$/.exec(s);
        if (all) {
          catchAll = all[1];
          return "/(.+)";
        }
        const dyn = /^\[(\w+)\]$/.exec(s);
        if (dyn) {
          names.push(dyn[1]);
          return "/([^/]+)";
        }
        return `/${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
      });
      // Static segments beat dynamic ones, which beat catch-alls (Next's precedence).
      const rank = segments.map((s) => (s.startsWith("[...") ? 2 : s.startsWith("[") ? 1 : 0));
      out.push({ pattern: new RegExp(`^${parts.join("")}/?$`), names, catchAll, file: path.join(dir, entry.name), rank });
    }
  }
  return out;
}

const routes = collectRoutes(APP).sort((a, b) => {
  for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
    const d = (a.rank[i] ?? -1) - (b.rank[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
});

export const ACCEPT = "application/vnd.api+json; version=1";

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Raw body text (for malformed JSON), or a stream. */
  raw?: string | ReadableStream<Uint8Array>;
  headers?: Record<string, string | undefined>;
  /** The client address the server's edge would have resolved (lib/http/peer-address.ts); none by default. */
  from?: string;
  accept?: string | null;
  contentType?: string | null;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Sends one request through the app's router. Defaults to the JSON-API Accept and Content-Type. */
export async function call<T = any>(method: string, url: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const full = new URL(url, "http://quorum.test");
  const route = routes.find((r) => r.pattern.test(full.pathname));
  if (!route) throw new Error(`no route for ${full.pathname}`);
  const m = route.pattern.exec(full.pathname)!;
  const params: Record<string, string | string[]> = {};
  route.names.forEach((n, i) => {
    params[n] = decodeURIComponent(m[i + 1]);
  });
  if (route.catchAll) params[route.catchAll] = m[route.names.length + 1].split("/");
  const mod = (await import(route.file)) as Record<string, Handler | undefined>;
  const handler = mod[method];
  if (!handler) return { status: 405, headers: new Headers(), body: null as T, text: "" };

  const headers = new Headers();
  if (opts.accept !== null) headers.set("accept", opts.accept ?? ACCEPT);
  const hasBody = opts.body !== undefined || opts.raw !== undefined;
  if (opts.contentType !== null && (opts.contentType || hasBody || method === "POST" || method === "PUT"))
    headers.set("content-type", opts.contentType ?? "application/json");
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers.set(k, v);
  if (opts.from) headers.set(...clientAddressHeader(opts.from));
  const sent = hasBody ? (opts.raw ?? JSON.stringify(opts.body)) : undefined;
  // A streamed body (a ReadableStream passed as `raw`) needs half-duplex.
  const req = new Request(full, {
    method,
    headers,
    body: sent,
    ...(sent instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const res = await handler(req, { params: Promise.resolve(params) });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

export const api = {
  get: <T = any>(p: string, o?: CallOptions) => call<T>("GET", `/api${p}`, o),
  post: <T = any>(p: string, body: unknown, o?: CallOptions) => call<T>("POST", `/api${p}`, { ...o, body }),
  put: <T = any>(p: string, body: unknown, o?: CallOptions) => call<T>("PUT", `/api${p}`, { ...o, body }),
  delete: <T = any>(p: string, o?: CallOptions) => call<T>("DELETE", `/api${p}`, o),
};
