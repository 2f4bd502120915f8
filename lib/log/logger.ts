import { format } from "node:util";
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { logContext } from "./context";

// The server's log: one JSON object per line on stdout (pino), each with its level, time, pid and message,
// and the request id (and user id, job id, task) of the request or job it was written in
// (lib/log/context.ts). In a terminal (or with LOG_FORMAT=pretty) the same lines are printed readably.
// LOG_LEVEL (default info) drops lines below it: `warn` leaves out the request lines.
//
// In the server processes everything else printed through console (our older `[engine] ...` lines, Next's
// own) goes through it too (routeConsoleToLog), so every line is JSON and carries the request id.

/** Keys whose values never reach the log, wherever they sit in a logged object. */
const REDACT = ["password", "token", "access_token", "refresh_token", "authorization", "cookie", "email", "secret"];

/**
 * A logger as the server's (see above), writing to `destination` when given (tests). `plain`: no context
 * mixin and no redaction, for lines built only from known fields that already carry their context (the
 * request lines, lib/ops/request-log.ts): redaction's walk over every key costs about twice the rest of a
 * line, on every request.
 */
export function createLogger(destination?: pino.DestinationStream, { plain = false }: { plain?: boolean } = {}): Logger {
  const pretty_ = (process.env.LOG_FORMAT ?? (process.stdout.isTTY ? "pretty" : "json")) === "pretty";
  const options: pino.LoggerOptions = {
    level: process.env.LOG_LEVEL ?? "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    ...(plain
      ? {}
      : {
          mixin: () => {
            const c = logContext();
            return c ? { requestId: c.requestId, userId: c.userId, jobId: c.jobId, task: c.task } : {};
          },
          redact: { paths: [...REDACT, ...REDACT.map((k) => `*.${k}`)], censor: "[redacted]" },
        }),
  };
  return pino(options, destination ?? stdout(pretty_));
}

const OUT = Symbol.for("quorum.log-stdout");

/**
 * The process's one stream to stdout, shared by its loggers (the general one and the request lines'): one
 * writer on the descriptor, so the lines keep their order and a line never waits behind another writer's
 * half-written one.
 */
function stdout(pretty_: boolean): pino.DestinationStream {
  const g = globalThis as unknown as Record<symbol, pino.DestinationStream | undefined>;
  g[OUT] ??= pretty_
    ? pretty({ colorize: process.stdout.isTTY, sync: true, ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss.l" })
    : pino.destination({ dest: 1, sync: true });
  return g[OUT];
}

const KEY = Symbol.for("quorum.logger");
const REQUEST_KEY = Symbol.for("quorum.request-logger");

/** The process's logger. */
export function log(): Logger {
  const g = globalThis as unknown as Record<symbol, Logger | undefined>;
  g[KEY] ??= createLogger();
  return g[KEY];
}

/** The process's logger for request lines (`plain`, see createLogger): same format and destination. */
export function requestLog(): Logger {
  const g = globalThis as unknown as Record<symbol, Logger | undefined>;
  g[REQUEST_KEY] ??= createLogger(undefined, { plain: true });
  return g[REQUEST_KEY];
}

/**
 * Sends console.log/info/warn/error/debug through the logger: the arguments become the message (as
 * console formats them), an Error among them its `err` (type, message and stack, once).
 */
export function routeConsoleToLog(logger: Logger = log()): void {
  const to =
    (level: "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]): void => {
      const err = args.find((a): a is Error => a instanceof Error);
      const rest = err ? args.filter((a) => a !== err) : args;
      const msg = rest.length ? format(...rest) : (err?.message ?? "");
      if (err) logger[level]({ err }, msg);
      else logger[level](msg);
    };
  console.debug = to("debug");
  console.log = to("info");
  console.info = to("info");
  console.warn = to("warn");
  console.error = to("error");
}
