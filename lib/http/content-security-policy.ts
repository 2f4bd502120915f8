// The Content-Security-Policy every answer carries, in one place: next.config.js sets the policy without
// a nonce on every answer, and proxy.ts replaces it on page navigations with the same policy carrying that
// request's nonce. Plain TypeScript without imports: next.config.js loads it through Node's own type
// stripping, proxy.ts through the bundler.
//
// Scripts: a page's are allowed by its nonce alone ('strict-dynamic': the chunks those scripts load are
// allowed too, and neither 'self' nor any host is trusted by browsers that know it; 'self' is only for
// those that do not). Next reads the nonce from the request's policy header and puts it on its own script
// tags. Answers without a nonce (API, machine routes, files) run no scripts: 'self' only, no inline.
// 'unsafe-eval' in development only (React's dev tools). Styles: inline allowed (React renders `style`
// attributes, which nonces cannot cover; a nonce in style-src would make browsers ignore 'unsafe-inline').
// Subject media and text come from wherever a project hosts them, so images, media and fetches may reach
// any https/http origin. /uploads answers carry their own stricter policy (lib/storage/file-routes.ts).

export interface PolicyOptions {
  /** This request's nonce (base64); none for answers that are not pages. */
  nonce?: string;
  /** `npm run dev`: eval for React's dev tools, websockets for hot reload. */
  dev: boolean;
}

export function contentSecurityPolicy({ nonce, dev }: PolicyOptions): string {
  const scripts = nonce ? `'self' 'nonce-${nonce}' 'strict-dynamic'` : "'self'";
  return [
    "default-src 'self'",
    `script-src ${scripts}${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "media-src 'self' data: blob: https: http:",
    `connect-src 'self' https: http:${dev ? " ws:" : ""}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** A fresh nonce: 128 random bits, base64 (what Next's nonce pattern and CSP's nonce-source accept). */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}
