// A volunteer's own place: from the classify page to their favourites and collections and back through the
// header's account menu, a collection's subjects opened and removed, shared publicly (and hidden again),
// their recents and profile, and their settings (name, email preference, password, deleting the account).
import { expect, test, type Page } from "@playwright/test";
import {
  accessToken,
  API_ACCEPT,
  classifiableWorkflow,
  createProject,
  newUser,
  registerUser,
  signIn,
  uniqueName,
  answer,
  currentSubject,
} from "../support";

const picture =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#354"/>' +
  '<circle cx="200" cy="150" r="60" fill="#eee"/></svg>';

/** The subjects' pictures (https://example.org/<i>.png) answered by the browser itself. */
const pictures = (page: Page) =>
  page.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/svg+xml", body: picture }));

const accountButton = (page: Page) => page.getByTestId("signed-in-as");
const accountMenu = (page: Page) => page.locator("#account-menu");

test("from classifying to favourites and collections and back; a collection shared and hidden; recents and profile", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const token = await accessToken(request);
  const project = await createProject(request, token, { display_name: uniqueName("Birds") });
  await classifiableWorkflow(request, token, project.id, 3);
  const volunteer = newUser("vol");
  await registerUser(request, volunteer);
  await pictures(page);
  await signIn(page, volunteer.login, volunteer.password);
  const classify = `/projects/${project.id}/classify`;

  // Classify: favourite the first subject, put the second in a new private collection.
  await page.goto(classify);
  const favourite = await currentSubject(page);
  const heart = page.getByRole("button", { name: "Favourite" });
  await heart.click();
  await expect(heart).toHaveAttribute("aria-pressed", "true");
  await answer(page);
  const collected = await currentSubject(page);
  const name = uniqueName("Owls");
  await page.getByRole("button", { name: "Add to collection" }).click();
  const collect = page.getByRole("dialog", { name: `Add subject ${collected} to a collection` });
  await collect.getByLabel("New collection").fill(name);
  await collect.getByLabel("Private").check();
  await collect.getByRole("button", { name: "Create with this subject" }).click();
  await expect(collect.getByRole("status")).toHaveText(`Created “${name}” with this subject.`);
  await collect.getByRole("button", { name: "Close" }).click();
  await answer(page);

  // Two clicks to the favourites (the account menu, its link), one back to classifying.
  await accountButton(page).click();
  await accountMenu(page).getByRole("link", { name: "Favourites" }).click();
  await expect(page).toHaveURL(/\/favourites$/);
  await expect(page).toHaveTitle("Favourites · Quorum");
  const favourites = page.getByRole("list", { name: "Your favourite subjects" });
  await expect(favourites.getByRole("button", { name: `Open subject ${favourite} of ${project.display_name}` })).toBeVisible();
  await favourites.getByRole("link", { name: `Classify ${project.display_name}` }).click();
  await expect(page).toHaveURL(new RegExp(`${classify}$`));
  await currentSubject(page);

  // The account menu by keyboard: Enter opens it, the arrow keys move through it, Escape closes it and
  // gives the focus back to its button.
  await accountButton(page).focus();
  await page.keyboard.press("Enter");
  await expect(accountButton(page)).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowDown");
  await expect(accountMenu(page).getByRole("link", { name: "Profile" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(accountMenu(page).getByRole("link", { name: "Favourites" })).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expect(accountMenu(page).getByRole("button", { name: "Sign out" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(accountButton(page)).toHaveAttribute("aria-expanded", "false");
  await expect(accountButton(page)).toBeFocused();
  await expect(accountMenu(page)).toBeHidden();
  // No Admin link for a volunteer.
  await page.keyboard.press("Enter");
  await expect(accountMenu(page).getByRole("link", { name: "Collections" })).toBeVisible();
  await expect(accountMenu(page).getByRole("link", { name: "Admin" })).toHaveCount(0);

  // The collections page shows the new collection; its page shows the subject; opened, then removed.
  await accountMenu(page).getByRole("link", { name: "Collections" }).click();
  await expect(page).toHaveURL(/\/collections$/);
  await page
    .getByRole("list", { name: "Your collections" })
    .getByRole("link", { name: new RegExp(name) })
    .click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page).toHaveTitle(`${name} · Collections · Quorum`);
  const collectionUrl = page.url();
  await expect(page.getByRole("button", { name: "Copy link" })).toHaveCount(0);
  await page.getByRole("button", { name: `Open subject ${collected} of ${project.display_name}` }).click();
  const viewer = page.getByRole("dialog", { name: `Subject ${collected} · ${project.display_name}` });
  await expect(viewer.getByRole("img", { name: `Subject ${collected}` })).toBeVisible();
  await expect(viewer.getByRole("link", { name: `Classify more in ${project.display_name}` })).toHaveAttribute("href", classify);
  await viewer.getByRole("button", { name: "Remove from collection" }).click();
  await expect(viewer).toBeHidden();
  await expect(page.getByRole("status")).toHaveText(`Subject ${collected} removed.`);
  await expect(page.getByText("No subjects here yet.")).toBeVisible();
  const vToken = await accessToken(request, volunteer.login, volunteer.password);
  const mine = { Accept: API_ACCEPT, Authorization: `Bearer ${vToken}` };
  const collectionId = collectionUrl.split("/").pop()!;
  const read = async () => (await (await request.get(`/api/collections/${collectionId}`, { headers: mine })).json()).collections[0];
  expect((await read()).links.subjects).toEqual([]);
  // Back in, through the API, for the share.
  expect(
    (await request.post(`/api/collections/${collectionId}/links/subjects`, { headers: mine, data: { subjects: [collected] } })).status(),
  ).toBe(200);

  // Made public, its link copied; another volunteer opens it. Made private again: a 404 to them.
  await page.reload();
  await page.getByRole("button", { name: "Make public" }).click();
  await expect(page.getByText("This collection is public")).toBeVisible();
  expect((await read()).private).toBe(false);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Link copied." })).toBeVisible();
  const shared = await page.getByLabel("Link to this collection").inputValue();
  expect(shared).toBe(collectionUrl);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(collectionUrl);

  const other = newUser("other");
  await registerUser(request, other);
  const otherContext = await browser.newContext();
  const otherPage = await otherContext.newPage();
  await pictures(otherPage);
  await signIn(otherPage, other.login, other.password);
  await otherPage.goto(shared);
  await expect(otherPage.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(otherPage.getByRole("button", { name: `Open subject ${collected} of ${project.display_name}` })).toBeVisible();
  await expect(otherPage.getByRole("button", { name: "Make private" })).toHaveCount(0);
  await otherPage.getByRole("button", { name: `Open subject ${collected} of ${project.display_name}` }).click();
  await expect(otherPage.getByRole("button", { name: "Remove from collection" })).toHaveCount(0);

  await page.getByRole("button", { name: "Make private" }).click();
  await expect(page.getByText("This collection is private")).toBeVisible();
  const hidden = await otherPage.goto(shared);
  expect(hidden?.status()).toBe(404);
  await expect(otherPage.getByRole("heading", { name })).toHaveCount(0);
  await otherContext.close();

  // Recents: the three subjects classified, each with its project and a way back to classifying.
  await page.goto("/recents");
  const recents = page.getByRole("list", { name: "Subjects you classified recently" });
  for (const id of [favourite, collected])
    await expect(recents.getByRole("button", { name: `Open subject ${id} of ${project.display_name}` })).toBeVisible();
  await expect(recents.getByRole("link", { name: `Classify ${project.display_name}` }).first()).toHaveAttribute("href", classify);

  // The profile: the project with the volunteer's classifications (counted in the background), and the chart.
  await page.goto(`/users/${volunteer.login}`);
  await expect(page).toHaveTitle(`${volunteer.display_name} · Profile · Quorum`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("project-count")).toHaveText("2 classifications", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole("img", { name: /^Bar chart of classifications per month/ })).toBeVisible();
  await expect(page.getByTestId("my-total")).toHaveText("2");
  // Another volunteer sees the public parts only.
  const anonymous = await browser.newContext();
  const outside = await anonymous.newPage();
  await outside.goto(`/users/${volunteer.login}`);
  await expect(outside.getByRole("heading", { level: 1, name: volunteer.display_name })).toBeVisible();
  await expect(outside.getByText("Your projects")).toHaveCount(0);
  await expect(outside.getByRole("link", { name: new RegExp(name) })).toHaveCount(0);
  await anonymous.close();

  // An admin's account menu links to the admin pages too.
  const { ADMIN_LOGIN, ADMIN_PASSWORD } = await import("../env");
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, ADMIN_LOGIN, ADMIN_PASSWORD);
  await adminPage.goto("/stats");
  await accountButton(adminPage).click();
  await expect(accountMenu(adminPage).getByRole("link", { name: "Admin" })).toHaveAttribute("href", "/admin");
  await adminContext.close();
});

test("own pages need a session; settings: display name, email preference, password, deleting the account", async ({ page, request }) => {
  test.setTimeout(120_000);
  for (const path of ["/favourites", "/collections", "/recents", "/settings"]) {
    await page.goto(path);
    await expect(page).toHaveURL(`/sign-in?return_to=${encodeURIComponent(path)}`);
  }
  const user = newUser("settings");
  const id = await registerUser(request, user);
  await signIn(page, user.login, user.password);
  await page.goto("/settings");
  await expect(page).toHaveTitle("Settings · Quorum");

  const renamed = `Renamed ${user.login}`;
  await page.getByLabel("Display name").fill(renamed);
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Profile saved." })).toBeVisible();
  await expect(page.getByTestId("signed-in-as")).toHaveText(`Signed in as ${renamed}`);

  const token = await accessToken(request, user.login, user.password);
  const me = async () =>
    (await (await request.get("/api/me", { headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` } })).json()).users[0];
  expect((await me()).global_email_communication).toBe(false);
  await page.getByLabel("News and updates from Quorum").check();
  await page.getByRole("button", { name: "Save email preferences" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Email preferences saved." })).toBeVisible();
  expect(await me()).toMatchObject({ id, display_name: renamed, global_email_communication: true, project_email_communication: false });

  // A wrong current password is refused with the server's reason; the right one changes it.
  const fresh = "a much newer battery staple";
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password", { exact: true }).fill(fresh);
  await page.getByLabel("New password again").fill(fresh);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "current_password is invalid" })).toBeVisible();
  await page.getByLabel("Current password").fill(user.password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed." })).toBeVisible();
  const tokenStatus = async (password: string) =>
    (
      await request.post("/oauth/token", {
        data: { grant_type: "password", client_id: (await import("../env")).PUBLIC_CLIENT_ID, login: user.login, password },
      })
    ).status();
  expect(await tokenStatus(user.password)).not.toBe(200);
  await signIn(page, user.login, fresh);

  // Deleting the account: the consequences are named first; after it, signing in fails.
  await page.goto("/settings");
  await page.getByRole("button", { name: "Delete account…" }).click();
  const confirm = page.getByRole("group", { name: "Confirm deleting your account" });
  await expect(confirm).toContainText("can never sign in with this account again");
  await expect(confirm).toContainText("This cannot be undone.");
  await confirm.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  expect(await tokenStatus(fresh)).not.toBe(200);
  const { csrfToken } = (await (await page.request.get("/auth/csrf")).json()) as { csrfToken: string };
  const refused = await page.request.post("/auth/callback/credentials", {
    form: { csrfToken, login: user.login, password: fresh, callbackUrl: "/" },
    maxRedirects: 0,
  });
  expect(refused.headers().location ?? "").toMatch(/error/i);
});
