import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce } from "./content-security-policy";

const directives = (policy: string) => Object.fromEntries(policy.split("; ").map((d) => [d.split(" ")[0], d.slice(d.indexOf(" ") + 1)]));
// Next takes a page's nonce from the first 'nonce-…' source of script-src matching this (get-script-nonce-from-header).
const NEXT_NONCE = /^'nonce-([A-Za-z0-9+/_-]+={0,2})'$/;

describe("contentSecurityPolicy", () => {
  it.each([
    { nonce: undefined, dev: false, scripts: "'self'", connect: "'self' https: http:" },
    { nonce: "abc=", dev: false, scripts: "'self' 'nonce-abc=' 'strict-dynamic'", connect: "'self' https: http:" },
    { nonce: undefined, dev: true, scripts: "'self' 'unsafe-eval'", connect: "'self' https: http: ws:" },
    { nonce: "abc=", dev: true, scripts: "'self' 'nonce-abc=' 'strict-dynamic' 'unsafe-eval'", connect: "'self' https: http: ws:" },
  ])("nonce $nonce, dev $dev: script-src $scripts", ({ nonce, dev, scripts, connect }) => {
    const d = directives(contentSecurityPolicy({ nonce, dev }));
    expect(d["script-src"]).toBe(scripts);
    expect(d["script-src"]).not.toContain("'unsafe-inline'");
    expect(d["connect-src"]).toBe(connect);
    // Everything else is the same with or without a nonce.
    expect({ ...d, "script-src": undefined, "connect-src": undefined }).toEqual({
      "default-src": "'self'",
      "style-src": "'self' 'unsafe-inline'",
      "img-src": "'self' data: blob: https: http:",
      "media-src": "'self' data: blob: https: http:",
      "font-src": "'self' data:",
      "object-src": "'none'",
      "base-uri": "'self'",
      "form-action": "'self'",
      "frame-ancestors": "'none'",
      "script-src": undefined,
      "connect-src": undefined,
    });
  });
});

describe("newNonce", () => {
  it("is 128 random bits that Next finds in the policy, never the same twice", () => {
    const nonces = Array.from({ length: 1000 }, newNonce);
    expect(new Set(nonces).size).toBe(1000);
    for (const nonce of nonces) {
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      const source = directives(contentSecurityPolicy({ nonce, dev: false }))["script-src"].split(" ")[1];
      expect(NEXT_NONCE.exec(source)?.[1]).toBe(nonce);
    }
  });
});
