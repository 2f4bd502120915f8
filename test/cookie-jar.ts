import { call } from "./http";

/**
 * A client that keeps the session cookie between calls, as the official clients do in a browser: each
 * answer's Set-Cookie replaces the cookie sent with the next call.
 */
export function cookieJar(accept = "application/json") {
  let cookie = "";
  const keep = <T extends { headers: Headers }>(res: T): T => {
    const set = res.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0];
    return res;
  };
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    keep(await call(method, path, { body, accept, headers: { cookie, ...headers } }));
  return { send, cookie: () => cookie };
}
