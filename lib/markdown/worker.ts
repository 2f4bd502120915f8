import fs from "node:fs";
import os from "node:os";
import { parentPort } from "node:worker_threads";
import { markdownToHtml } from "./render.ts";

// The worker thread lib/markdown/off-thread.ts starts: renders one text at a time and answers with its
// HTML. Loaded as it is by Node (no bundler in tests), so it imports with file extensions.

export interface RenderRequest {
  id: number;
  source: string;
}
export interface RenderAnswer {
  id: number;
  html?: string;
  error?: string;
}

// This thread runs below the event loop's (ten steps nicer, on Linux, where a thread has a priority of its
// own): on a busy machine a long render waits for the processor, not the requests.
try {
  const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
  os.setPriority(tid, Math.min(19, os.getPriority(tid) + 10));
} catch {
  // Not Linux: the same priority as the event loop.
}

parentPort?.on("message", ({ id, source }: RenderRequest) => {
  let answer: RenderAnswer;
  try {
    answer = { id, html: markdownToHtml(source) };
  } catch (e) {
    answer = { id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort?.postMessage(answer);
});
