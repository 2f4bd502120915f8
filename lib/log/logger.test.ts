// The server's log lines: JSON with the request's (or job's) context, an error's stack once, secrets redacted,
// and console output routed through the same logger.
import { afterEach, describe, expect, it } from "vitest";
import { withLogContext } from "./context";
import { createLogger, routeConsoleToLog } from "./logger";

const saved = { ...console };
afterEach(() => Object.assign(console, saved));

function capture() {
  const lines: Record<string, any>[] = [];
  const logger = createLogger({ write: (s: string) => void lines.push(JSON.parse(s)) });
  return { logger, lines };
}

describe("the log", () => {
  it("a line written in a request carries its request id and user; outside one, neither", () => {
    const { logger, lines } = capture();
    withLogContext({ requestId: "req-1", userId: 42 }, () => logger.info({ route: "/api/me" }, "GET /api/me 200"));
    logger.info("outside");
    expect(lines[0]).toMatchObject({ level: "info", requestId: "req-1", userId: 42, route: "/api/me", msg: "GET /api/me 200" });
    expect(lines[0].time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(lines[1]).not.toHaveProperty("requestId");
    expect(lines[1]).not.toHaveProperty("userId");
  });

  it("a job's lines carry the request that caused it, the job and its task", () => {
    const { logger, lines } = capture();
    withLogContext({ requestId: "req-2", jobId: "17", task: "classifications_export" }, () => logger.warn("slow"));
    expect(lines[0]).toMatchObject({ level: "warn", requestId: "req-2", jobId: "17", task: "classifications_export" });
  });

  it("console.error of an error: one line, the stack once, with the request id", () => {
    const { logger, lines } = capture();
    routeConsoleToLog(logger);
    const err = new Error("boom at a unique place");
    withLogContext({ requestId: "req-3" }, () => console.error("[500]", err));
    console.warn("[engine] %d classifications", 3);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: "error",
      requestId: "req-3",
      msg: "[500]",
      err: { type: "Error", message: "boom at a unique place" },
    });
    const text = JSON.stringify(lines[0]);
    expect(text.split("boom at a unique place").length - 1).toBe(2); // the message and the stack's first line
    expect(lines[0].err.stack).toContain("logger.test.ts");
    expect(lines[1]).toMatchObject({ level: "warn", msg: "[engine] 3 classifications" });
  });

  it.each([["password"], ["token"], ["access_token"], ["email"], ["authorization"], ["cookie"]])(
    "a %s field is redacted, at the top and one level down",
    (key) => {
      const { logger, lines } = capture();
      logger.info({ [key]: "secret-value", user: { [key]: "secret-value" } }, "x");
      expect(JSON.stringify(lines[0])).not.toContain("secret-value");
      expect(lines[0][key]).toBe("[redacted]");
    },
  );
});
