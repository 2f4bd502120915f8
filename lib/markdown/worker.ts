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

parentPort?.on("message", ({ id, source }: RenderRequest) => {
  let answer: RenderAnswer;
  try {
    answer = { id, html: markdownToHtml(source) };
  } catch (e) {
    answer = { id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort?.postMessage(answer);
});
