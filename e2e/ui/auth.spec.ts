// Browser accounts: registration, signing out and in again, and the failures a person can run into.
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { accessToken, API_ACCEPT, newUser, registerUser, type NewUser } from "../support";

const signedInAs = (page: Page) => page.getByTestId("signed-in-as");
// Next.js also renders a (shadow DOM) route announcer with role=alert, so alerts are matched by text.
const alert = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

async function signIn(page: Page, login: string, password: string) {
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("Login or email", { exact: true }).fill(login);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signUp(page: Page, user: NewUser) {
  await page.goto("/sign-up");
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  await page.getByLabel("Login", { exact: true }).fill(user.login);
  await page.getByLabel("Display name", { exact: true }).fill(user.display_name);
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByLabel("Password (at least 8 characters)", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Register" }).click();
}

test("a visitor registers, signs out and signs in again", async ({ page, baseURL }) => {
  const user = newUser("ui_reg");

  await page.goto("/");
  await expect(page.getByRole("link", { name: "Register" })).toBeVisible();
  await expect(signedInAs(page)).toHaveCount(0);

  await signUp(page, user);
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(signedInAs(page)).toHaveText(`Signed in as ${user.display_name}`);
  await expect(page.getByRole("heading", { name: "Projects", exact: true })).toBeVisible();

  // The session survives a reload (it is a cookie, not page state).
  await page.reload();
  await expect(signedInAs(page)).toHaveText(`Signed in as ${user.display_name}`);

  await signedInAs(page).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(signedInAs(page)).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();

  await signIn(page, user.login, user.password);
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(signedInAs(page)).toHaveText(`Signed in as ${user.display_name}`);

  // Signing in with the email address works too.
  await signedInAs(page).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(signedInAs(page)).toHaveCount(0);
  await signIn(page, user.email, user.password);
  await expect(signedInAs(page)).toHaveText(`Signed in as ${user.display_name}`);
});

test("a wrong password is refused with an alert", async ({ page, request }) => {
  const user = newUser("ui_badpw");
  await registerUser(request, user);

  await signIn(page, user.login, "not the password");
  await expect(alert(page, "Invalid login or password.")).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in\?error=1$/);
  await expect(signedInAs(page)).toHaveCount(0);

  // An unknown login gets the same answer.
  await signIn(page, `${user.login}_nobody`, user.password);
  await expect(alert(page, "Invalid login or password.")).toBeVisible();
  await expect(signedInAs(page)).toHaveCount(0);

  // And the right password still works afterwards.
  await signIn(page, user.login, user.password);
  await expect(signedInAs(page)).toHaveText(`Signed in as ${user.display_name}`);
});

test("registering a login that is taken shows why", async ({ page, request }) => {
  const existing = newUser("ui_taken");
  await registerUser(request, existing);

  await signUp(page, { ...newUser("ui_taken2"), login: existing.login });
  await expect(alert(page, "login has already been taken")).toBeVisible();
  await expect(page).toHaveURL(/\/sign-up\?error=/);
  await expect(signedInAs(page)).toHaveCount(0);
});

/** What /api/me answers to a copy of the browser's session cookie, sent from elsewhere. */
async function meWithCopiedCookie(request: APIRequestContext, cookie: string): Promise<number> {
  const res = await request.get("/api/me", { headers: { Accept: API_ACCEPT, Cookie: cookie } });
  return res.status();
}

async function sessionCookie(context: BrowserContext): Promise<string> {
  const c = (await context.cookies()).find((x) => /authjs\.session-token$/.test(x.name));
  expect(c, "the Auth.js session cookie").toBeTruthy();
  return `${c!.name}=${c!.value}`;
}

test("a copied session cookie ends with sign-out, and with a password change made elsewhere", async ({
  page,
  context,
  playwright,
  baseURL,
}) => {
  const user = newUser("ui_copy");
  const request = await playwright.request.newContext({ baseURL });
  await registerUser(request, user);

  await signIn(page, user.login, user.password);
  await expect(signedInAs(page)).toHaveText(`Signed in as ${user.display_name}`);
  const copied = await sessionCookie(context);
  expect(await meWithCopiedCookie(request, copied)).toBe(200);
  await signedInAs(page).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(signedInAs(page)).toHaveCount(0);
  expect(await meWithCopiedCookie(request, copied)).toBe(401);

  // Signed in again; the password is changed with a token (another device): this session ends too.
  await signIn(page, user.login, user.password);
  await expect(signedInAs(page)).toHaveText(`Signed in as ${user.display_name}`);
  const second = await sessionCookie(context);
  const token = await accessToken(request, user.login, user.password);
  const changed = await request.put("/users", {
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
    data: { user: { current_password: user.password, password: "a brand new password", password_confirmation: "a brand new password" } },
  });
  expect(changed.status()).toBe(200);
  expect(await meWithCopiedCookie(request, second)).toBe(401);
  await page.reload();
  await expect(signedInAs(page)).toHaveCount(0);
  await request.dispose();
});

test("the account forms say what is wrong under each field, show a password on request and link to each other", async ({ page }) => {
  await page.goto("/sign-up");
  await page.getByRole("button", { name: "Register" }).click();
  // Nothing was sent: each empty required field says so under itself, and the first one has the focus.
  const login = page.getByLabel("Login", { exact: true });
  await expect(login).toBeFocused();
  await expect(login).toHaveAttribute("aria-invalid", "true");
  await expect(login).toHaveAccessibleDescription(/Choose a login\.$/);
  await expect(page.getByLabel("Email", { exact: true })).toHaveAccessibleDescription("Enter your email address.");
  await expect(page).toHaveURL(/\/sign-up$/);
  await login.fill("not valid!");
  await expect(login).toHaveAccessibleDescription(/Use only letters, digits, _ \. and -\.$/);
  await login.fill("valid_login");
  await expect(login).not.toHaveAttribute("aria-invalid");

  const password = page.getByLabel("Password (at least 8 characters)", { exact: true });
  const show = page.getByRole("button", { name: "Show password" });
  await password.fill("secret words");
  await expect(show).toHaveAttribute("aria-pressed", "false");
  await expect(password).toHaveAttribute("type", "password");
  await show.click();
  await expect(show).toHaveAttribute("aria-pressed", "true");
  await expect(password).toHaveAttribute("type", "text");
  await expect(password).toHaveValue("secret words");

  const accountLinks = page.getByRole("navigation", { name: "Account pages" });
  await accountLinks.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
  await accountLinks.getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await accountLinks.getByRole("link", { name: "Create an account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
});

test("a lab link opened signed out goes to sign in, and back to the lab after it", async ({ page, request, baseURL }) => {
  const user = newUser("ui_labret");
  await registerUser(request, user);
  await page.goto("/lab");
  await expect(page).toHaveURL(`${baseURL}/sign-in?return_to=%2Flab`);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("Login or email", { exact: true }).fill(user.login);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${baseURL}/lab`);
  await expect(signedInAs(page)).toHaveText(`Signed in as ${user.display_name}`);
  await expect(page).toHaveTitle("Lab · Quorum");
});

test("every page has a title of its own, and a missing page is a 404 of the site", async ({ page }) => {
  for (const [path, title] of [
    ["/", "Quorum"],
    ["/stats", "Statistics · Quorum"],
    ["/sign-in", "Sign in · Quorum"],
    ["/sign-up", "Create an account · Quorum"],
    ["/forgot-password", "Reset your password · Quorum"],
  ] as const) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(title);
  }
  const missing = await page.goto("/no-such-page");
  expect(missing?.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found · Quorum");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Browse the projects" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
});
