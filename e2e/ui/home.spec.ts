// The home page: launched public projects (created here through the API), paging, search; private ones stay
// hidden, launched or not.
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { E2E_BASE_URL } from "../env";
import {
  accessToken,
  API_ACCEPT,
  approveLaunch,
  classifiableWorkflow,
  createProject,
  newUser,
  registerUser,
  signIn,
  uniqueName,
  postClassification,
} from "../support";

const PAGE_SIZE = 12; // components/project-list.tsx

// The list's cards (featured projects have a section of their own above it).
const cards = (page: Page) => page.getByRole("region", { name: "Projects", exact: true }).getByTestId("project-card");
const cardTitles = (page: Page) => cards(page).getByRole("heading", { level: 3 });
const BRAND_600 = "rgb(31, 111, 92)"; // app/globals.css --color-brand-600

async function search(page: Page, text: string) {
  await page.getByLabel("Search projects").fill(text);
  await page.getByRole("button", { name: "Search", exact: true }).click();
}

test.describe("home page", () => {
  // One tag per run keeps these projects apart from anything else in the database.
  const tag = uniqueName("Paging");
  const publicNames = Array.from({ length: PAGE_SIZE + 1 }, (_, i) => `${tag} ${String(i + 1).padStart(2, "0")}`);
  const privateName = `${tag} secret`;
  const owner = newUser("ui_owner");

  test.beforeAll(async () => {
    const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    try {
      await registerUser(api, owner);
      const token = await accessToken(api, owner.login, owner.password);
      // One at a time, so that "newest first" has a well-defined order.
      for (const display_name of publicNames) await approveLaunch(api, (await createProject(api, token, { display_name, live: true })).id);
      // Launched, but private: still hidden.
      await approveLaunch(api, (await createProject(api, token, { display_name: privateName, private: true, live: true })).id);
    } finally {
      await api.dispose();
    }
  });

  test("lists public projects, newest first, with their owner", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Projects", level: 2 })).toBeVisible();
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    // The private project was created last, so it would be first if it were listed.
    await expect(cardTitles(page).first()).toHaveText(publicNames.at(-1)!);
    await expect(cards(page).first()).toContainText(`by ${owner.display_name}`);
    await expect(page.getByText(privateName)).toHaveCount(0);
  });

  test("pages through search results with Next and Previous", async ({ page }) => {
    await page.goto("/");
    await search(page, tag);

    const previous = page.getByRole("button", { name: "Previous" });
    const next = page.getByRole("button", { name: "Next" });

    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await expect(previous).toBeDisabled();
    await expect(next).toBeEnabled();
    const firstPage = await cardTitles(page).allTextContents();
    expect(firstPage).toEqual(publicNames.slice(1).reverse());

    await next.click();
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await expect(cards(page)).toHaveCount(1);
    await expect(cardTitles(page)).toHaveText([publicNames[0]]);
    await expect(next).toBeDisabled();
    await expect(previous).toBeEnabled();

    await previous.click();
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await expect(cardTitles(page)).toHaveText(firstPage);
    await expect(page.getByText(privateName)).toHaveCount(0);
  });

  test("search narrows the list and never reveals a private project", async ({ page }) => {
    await page.goto("/");
    await search(page, publicNames[6]);
    await expect(cardTitles(page)).toHaveText([publicNames[6]]);
    await expect(page.getByRole("navigation", { name: "Project pages" })).toHaveCount(0);

    // Case does not matter.
    await search(page, publicNames[3].toUpperCase());
    await expect(cardTitles(page)).toHaveText([publicNames[3]]);

    await search(page, privateName);
    await expect(page.getByText(`No projects match these filters.`)).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
  });

  test("a private project stays hidden even from its signed-in owner", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("Login or email", { exact: true }).fill(owner.login);
    await page.getByLabel("Password", { exact: true }).fill(owner.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("signed-in-as")).toHaveText(`Signed in as ${owner.display_name}`);

    await search(page, tag);
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    await search(page, privateName);
    await expect(page.getByText(`No projects match these filters.`)).toBeVisible();
  });

  test("a project created while browsing shows up after a reload", async ({ page, request }) => {
    const token = await accessToken(request);
    const name = `${uniqueName("Fresh")} project`;
    await page.goto("/");
    await expect(cards(page).first()).toBeVisible();
    await expect(page.getByText(name)).toHaveCount(0);

    await createProject(request, token, { display_name: name, description: "Made by the admin", live: true, launch_approved: true });
    await page.reload();
    await expect(cardTitles(page).first()).toHaveText(name);
    await expect(cards(page).first()).toContainText("Made by the admin");
  });
});

test("home, project and classify pages log no error and get no failing answer, anonymous or signed in", async ({ page, request }) => {
  // A project as a new one is: no avatar, no background, no engine configuration.
  const token = await accessToken(request);
  const project = await createProject(request, token, { display_name: uniqueName("Plain"), live: true, launch_approved: true });
  await classifiableWorkflow(request, token, project.id);
  await page.route("https://example.org/**", (route) =>
    route.fulfill({ contentType: "image/svg+xml", body: '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"/>' }),
  );
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  // And one with an avatar (an external link), for the home page's cards.
  const pictured = await createProject(request, token, { display_name: uniqueName("Pictured"), live: true, launch_approved: true });
  const avatar = await request.post(`/api/projects/${pictured.id}/avatar`, {
    headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` },
    data: { media: { content_type: "image/png", external_link: true, src: "https://example.org/avatar.png" } },
  });
  expect(avatar.status(), await avatar.text()).toBe(201);
  const visit = async () => {
    await page.goto("/");
    const card = (name: string) => cards(page).filter({ has: page.getByRole("heading", { name }) });
    await expect(card(pictured.display_name).locator("img")).toHaveAttribute("src", "https://example.org/avatar.png");
    await expect(card(project.display_name).getByTestId("avatar-placeholder")).toHaveText(project.display_name[0].toUpperCase());
    await page.goto(`/projects/${project.id}`);
    await expect(page.getByRole("heading", { name: project.display_name, level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await page.goto(`/projects/${project.id}/classify`);
    await expect(page.getByRole("img", { name: /^Subject \d+/ })).toBeVisible();
    await page.waitForLoadState("networkidle");
  };
  await visit();
  const volunteer = newUser("ui_clean");
  await registerUser(request, volunteer);
  await signIn(page, volunteer.login, volunteer.password);
  await visit();
  expect(problems).toEqual([]);
});

test("the home page explains Quorum, leads into classifying, features projects, shows progress and has a footer", async ({
  page,
  request,
}) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const featured = await createProject(request, token, { display_name: uniqueName("Featured"), live: true });
  await classifiableWorkflow(request, token, featured.id, 2);
  const etag = (await request.get(`/api/projects/${featured.id}`, { headers })).headers().etag;
  const put = await request.put(`/api/projects/${featured.id}`, {
    headers: { ...headers, "If-Match": etag },
    data: { projects: { featured: true } },
  });
  expect(put.status(), await put.text()).toBe(200);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Help researchers, one classification at a time");
  await expect(page.getByTestId("explainer")).toContainText("Quorum is a citizen-science platform");
  const section = page.getByTestId("featured-projects");
  await expect(section.getByRole("heading", { name: "Featured projects" })).toBeVisible();
  const card = section.getByTestId("project-card").filter({ has: page.getByRole("heading", { name: featured.display_name }) });
  await expect(card).toBeVisible();
  // The card's progress: a brand-coloured bar, empty at 0 %, and the retired subjects in words.
  const bar = card.getByRole("progressbar", { name: `${featured.display_name}: 0% complete` });
  await expect(bar).toHaveAttribute("aria-valuenow", "0");
  await expect(card.getByTestId("project-progress")).toContainText("0% complete · 0 of 2 subjects retired");
  const fill = bar.locator("[data-progress-fill]");
  expect(await fill.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(BRAND_600);
  expect((await fill.boundingBox())?.width ?? 0).toBe(0);
  await expect(page.getByTestId("project-card").first().getByRole("progressbar")).toBeVisible();

  const footer = page.getByRole("navigation", { name: "Footer" });
  await expect(footer.getByRole("link", { name: "About Quorum" })).toHaveAttribute("href", "/#about");
  await expect(footer.getByRole("link", { name: "Statistics" })).toHaveAttribute("href", "/stats");
  await expect(footer.getByRole("link", { name: "Source code" })).toHaveAttribute("href", "https://example.org/quorum-source");
  await expect(footer.getByRole("link", { name: /The lab/ })).toHaveAttribute("href", "/lab");
  // A wide screen shows the filters without a button.
  await expect(page.getByRole("button", { name: /^Filters/ })).toBeHidden();
  await expect(page.getByRole("combobox", { name: "Discipline" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/home-1280.png", fullPage: true });

  // The call to action leads to a classify page (the featured project's, or the most active one's).
  const cta = page.getByRole("link", { name: /^Start classifying/ });
  await expect(cta).toHaveAttribute("href", /^\/projects\/\d+\/classify$/);
  await cta.click();
  await expect(page).toHaveURL(/\/projects\/\d+\/classify$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Classify");

  // On a phone the filters fold behind a "Filters" button.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/");
  const filters = page.getByRole("button", { name: /^Filters/ });
  await expect(filters).toBeVisible();
  await expect(filters).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("combobox", { name: "Discipline" })).toBeHidden();
  await expect(page.getByTestId("featured-projects")).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/home-375.png", fullPage: true });
  await filters.click();
  await expect(filters).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("combobox", { name: "Discipline" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Sort by" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: "test-results/screenshots/home-filters-375.png", fullPage: true });
});

test("a volunteer who has seen every subject is offered other projects", async ({ page, request }) => {
  const token = await accessToken(request);
  const done = await createProject(request, token, { display_name: uniqueName("Seen all"), live: true });
  const w = await classifiableWorkflow(request, token, done.id, 1);
  const elsewhere = await createProject(request, token, { display_name: uniqueName("Elsewhere"), live: true });
  await classifiableWorkflow(request, token, elsewhere.id, 1);
  const volunteer = newUser("ui_seen");
  await registerUser(request, volunteer);
  const mine = await accessToken(request, volunteer.login, volunteer.password);
  await postClassification(request, {
    project: done.id,
    workflow: w.workflowId,
    version: w.version,
    subjects: [w.subjectIds[0]],
    token: mine,
  });
  await page.route("https://example.org/**", (route) =>
    route.fulfill({ contentType: "image/svg+xml", body: '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"/>' }),
  );
  await signIn(page, volunteer.login, volunteer.password);
  await page.goto(`/projects/${done.id}/classify`);
  const others = page.getByRole("region", { name: "Other projects to classify" });
  await expect(others).toBeVisible({ timeout: 15_000 });
  const links = others.getByRole("link");
  expect(await links.count()).toBeGreaterThan(0);
  for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")))) {
    expect(href).toMatch(/^\/projects\/\d+\/classify$/);
    expect(href).not.toBe(`/projects/${done.id}/classify`);
  }
  await page.screenshot({ path: "test-results/screenshots/classify-seen-all-1280.png", fullPage: true });
  await links.first().click();
  await expect(page).toHaveURL(/\/projects\/\d+\/classify$/);
  expect(page.url()).not.toContain(`/projects/${done.id}/`);
});
