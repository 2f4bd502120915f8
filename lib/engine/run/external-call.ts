import fs from "node:fs";
import https from "node:https";

// Calls to external extractors, reducers and effects: POST JSON to an HTTPS URL. 200/201/202 with a body
// give data, 204 gives none; any other status, a timeout or a network error is an ExternalCallError,
// which the caller records and retries with backoff.

export const ACCEPTED_STATUSES = [200, 201, 202, 204];

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
export function postExternal(url: string, body: unknown, opts: ExternalCallOptions = {}): Promise<unknown> {
  const target = new URL(url);
  if (target.protocol !== "https:") return Promise.reject(new ExternalCallError(`external URL must be HTTPS: ${url}`, null));
  const payload = Buffer.from(JSON.stringify(body));
  const timeoutMs = opts.timeoutMs ?? externalTimeoutMs();
  return new Promise((resolve, reject) => {
    const req = https.request(
      target,
      {
        method: "POST",
        ca: trustedCa(),
        headers: { "content-type": "application/json", accept: "application/json", "content-length": payload.length, ...opts.headers },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (e) => reject(new ExternalCallError(`${url}: ${e.message}`, null)));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          if (!ACCEPTED_STATUSES.includes(status)) return reject(new ExternalCallError(`${url} answered ${status}`, status));
          const text = Buffer.concat(chunks).toString("utf8");
          if (status === 204 || !text.trim()) return resolve(null);
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new ExternalCallError(`${url} answered ${status} with a body that is not JSON`, status));
          }
        });
      },
    );
    req.on("timeout", () => req.destroy(new ExternalCallError(`${url} did not answer within ${timeoutMs} ms`, null)));
    req.on("error", (e) => reject(e instanceof ExternalCallError ? e : new ExternalCallError(`${url}: ${e.message}`, null)));
    req.end(payload);
  });
}
