import fs from "node:fs";
import { OutboundError, outboundFetch, type OutboundResponse } from "@/lib/net/outbound-fetch";

// Calls to external extractors, reducers and effects: POST JSON to an HTTPS URL. 200/201/202 with a body
// give data, 204 gives none; any other status (a redirect too: it is not followed), a timeout or a network
// error is an ExternalCallError, which the caller records and retries with backoff. The URLs come from
// workflow configurations that any project owner writes, so the calls go through the outbound guard
// (lib/net/outbound-fetch.ts): no loopback, private or metadata addresses unless the operator allows them.

export const ACCEPTED_STATUSES = [200, 201, 202, 204];

/** Largest answer read from an external service. */
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

export class ExternalCallError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export interface ExternalCallOptions {
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** Extra trusted CA certificates (PEM file in ENGINE_CA_FILE), for self-hosted services with a private CA. */
function trustedCa(): string | undefined {
  const file = process.env.ENGINE_CA_FILE;
  return file ? fs.readFileSync(file, "utf8") : undefined;
}

export function externalTimeoutMs(): number {
  return Number(process.env.ENGINE_EXTERNAL_TIMEOUT_MS ?? 10_000);
}

/** POSTs body as JSON; resolves to the parsed response body (null for 204 or an empty body). */
export async function postExternal(url: string, body: unknown, opts: ExternalCallOptions = {}): Promise<unknown> {
  const payload = Buffer.from(JSON.stringify(body));
  const timeoutMs = opts.timeoutMs ?? externalTimeoutMs();
  let res: OutboundResponse;
  try {
    res = await outboundFetch(url, {
      method: "POST",
      body: payload,
      headers: { "content-type": "application/json", accept: "application/json", ...opts.headers },
      timeoutMs,
      ca: trustedCa(),
      maxRedirects: 0,
      protocols: ["https:"],
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    if (err.kind === "timeout") throw new ExternalCallError(`${url} did not answer within ${timeoutMs} ms`, null);
    throw new ExternalCallError(`${url}: ${err.message}`, null);
  }
  const status = res.status;
  if (!ACCEPTED_STATUSES.includes(status)) throw new ExternalCallError(`${url} answered ${status}`, status);
  const text = res.body.toString("utf8");
  if (status === 204 || !text.trim()) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ExternalCallError(`${url} answered ${status} with a body that is not JSON`, status);
  }
}
