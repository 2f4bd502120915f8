// Settings shared by playwright.config.ts and the specs. Every value can be overridden from the shell.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = process.env.E2E_BASE_URL ?? `http://localhost:${E2E_PORT}`;
export const PUBLIC_CLIENT_ID = process.env.PUBLIC_CLIENT_ID ?? "535759b966935c297be11913acee7a9ca17c025f9f15520e7504728e71110a27";
export const ADMIN_LOGIN = process.env.E2E_ADMIN_LOGIN ?? "e2e_admin";
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? "e2e-admin-password";
// The established front end's stand-in (e2e/api/established-sign-in.spec.ts): a page on another site
// (127.0.0.1 is another site than localhost), trusted with cookies and as a sign-in redirect.
export const E2E_FRONT_END_PORT = Number(process.env.E2E_FRONT_END_PORT ?? E2E_PORT + 1);
export const E2E_FRONT_END_ORIGIN = `http://127.0.0.1:${E2E_FRONT_END_PORT}`;
