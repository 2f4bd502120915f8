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
} from "../support";

const PAGE_SIZE = 12; // components/project-list.tsx

const cards = (page: Page) => page.getByTestId("project-card");
const cardTitles = (page: Page) => cards(page).getByRole("heading", { level: 2 });

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
    await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
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
