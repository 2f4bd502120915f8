import { Worker } from "node:worker_threads";
import type { RenderAnswer, RenderRequest } from "./worker.ts";

// Markdown rendered for the server's own pages (a project's texts, its about pages, an organization's
// introduction) on a worker thread, so no text, however long or hostile, holds the event loop that every
// other request waits on: markdown-it is linear, but a 500,000-character about page still takes a few
// hundred milliseconds. One worker per server process, started on first use, renders one text at a time;
// the same text asked again while it renders, or soon after, is rendered once (the last ones are kept,
// up to CACHE_CHARS of source and HTML). A worker that fails or takes longer than TIMEOUT_MS is ended and
// the next text starts a new one; the callers of the lost renders get null and show the text as it is.

const TIMEOUT_MS = 30_000;
const CACHE_CHARS = 8_000_000;

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (html: string | null) => void; timer: NodeJS.Timeout }>();
/** Renders done and under way, by source; a Map keeps insertion order, so the first is the oldest. */
const cache = new Map<string, { html: Promise<string | null>; chars: number }>();
let cachedChars = 0;

function stop(w: Worker) {
  if (worker !== w) return;
  worker = null;
  for (const [id, job] of waiting) {
    clearTimeout(job.timer);
    job.resolve(null);
    waiting.delete(id);
  }
  void w.terminate();
}

function start(): Worker {
  const w = new Worker(new URL("./worker.ts", import.meta.url));
  w.unref();
  w.on("message", ({ id, html }: RenderAnswer) => {
    const job = waiting.get(id);
    if (!job) return;
    waiting.delete(id);
    clearTimeout(job.timer);
    job.resolve(html ?? null);
  });
  w.on("error", (e) => {
    console.error(`markdown worker failed: ${e instanceof Error ? e.message : String(e)}`);
    stop(w);
  });
  w.on("exit", () => stop(w));
  return w;
}

function render(source: string): Promise<string | null> {
  const w = (worker ??= start());
  const id = nextId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      console.error(`markdown worker took more than ${TIMEOUT_MS} ms on a text of ${source.length} characters: restarted`);
      stop(w);
    }, TIMEOUT_MS);
    timer.unref();
    waiting.set(id, { resolve, timer });
    w.postMessage({ id, source } satisfies RenderRequest);
  });
}

function evict() {
  for (const [k, e] of cache) {
    if (cachedChars <= CACHE_CHARS) return;
    cache.delete(k);
    cachedChars -= e.chars;
  }
}

/** `source` as HTML (lib/markdown/render.ts), rendered on the worker thread; null when the render failed. */
export function renderMarkdownOffThread(source: string): Promise<string | null> {
  const key = source;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.html;
  }
  const html = render(source);
  const entry = { html, chars: key.length };
  cache.set(key, entry);
  cachedChars += entry.chars;
  evict();
  void html.then((h) => {
    if (cache.get(key) !== entry) return;
    if (h === null) {
      // A failed render is tried again next time.
      cache.delete(key);
      cachedChars -= entry.chars;
      return;
    }
    entry.chars += h.length;
    cachedChars += h.length;
    evict();
  });
  return html;
}
