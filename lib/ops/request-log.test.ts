// The request line: only the fields it names, the route as a pattern (never the path or the query), so it
// can be written without the general log's redaction.
import { describe, expect, it } from "vitest";
import { createLogger } from "@/lib/log/logger";
import { requestLine } from "./request-log";

const finished = (url: string, status = 200, userId?: number) => ({
  method: "GET",
  url,
  status,
  seconds: 0.01234,
  context: { requestId: "req-9", userId },
});

describe("the request line", () => {
  it.each([
    ["/api/projects/17?email=a@example.org&token=secret", "/api/projects/[id]"],
    ["/reset-password?token=secret-reset", "/reset-password"],
    ["/api/users/5/recents", "/api/users/[id]/recents"],
    ["/nowhere/at/all", "unmatched"],
  ])("%s is logged as %s, with nothing of the path or query", (url, route) => {
    const line = requestLine(finished(url, 200, 7));
    expect(line).toEqual({ requestId: "req-9", userId: 7, method: "GET", route, status: 200, ms: 12.3 });
    expect(JSON.stringify(line)).not.toContain("secret");
  });

  it("written by the plain logger: the same format as every other line, without a user when there is none", () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ write: (s: string) => void lines.push(JSON.parse(s)) }, { plain: true });
    logger.info(requestLine(finished("/api/me", 404)), "GET /api/me 404");
    expect(lines).toEqual([
      {
        level: "info",
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        pid: process.pid,
        requestId: "req-9",
        method: "GET",
        route: "/api/me",
        status: 404,
        ms: 12.3,
        msg: "GET /api/me 404",
      },
    ]);
  });
});
