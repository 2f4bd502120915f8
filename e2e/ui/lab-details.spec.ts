// The lab's project details and team: every text and setting edited and saved, an avatar uploaded, an
// about page written, a collaborator invited by login who then edits a workflow, removed again, and the
// project deleted after typing its name. Screenshots at 1280 px are kept under test-results/screenshots.
import { expect, test } from "@playwright/test";
import { accessToken, API_ACCEPT, classifiableWorkflow, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

// A 2×2 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGP8z8Dwn4EIwESMolGF1AMAKr4DAiTjzGsAAAAASUVORK5CYII=",
  "base64",
);

test("a researcher edits the project, its images, an about page and the team; a collaborator edits a workflow; the project is deleted", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = newUser("lab_owner");
  const helper = newUser("lab_helper");
  await registerUser(request, owner);
  await registerUser(request, helper);
  const token = await accessToken(request, owner.login, owner.password);
  const name = uniqueName("Owls");
  const project = await createProject(request, token, { display_name: name });
  const workflow = await classifiableWorkflow(request, token, project.id, 1);
  const api = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, owner.login, owner.password);
  await page.goto(`/lab/projects/${project.id}`);
  await page.getByRole("navigation", { name: "Project builder" }).getByRole("link", { name: "Project details" }).click();
  await expect(page.getByRole("heading", { name: "Project details" })).toBeVisible();
  await expect(page.getByLabel("Project name")).toHaveValue(name);

  // Texts and settings.
  await page.getByLabel("Short description").fill("Owls at night");
  await page.getByLabel("Introduction").fill("## Welcome\nHelp us count **owls**.");
  await page.getByLabel("Researcher quote").fill("Every owl counts.");
  await page.getByLabel("Discipline").selectOption("Nature");
  await page.getByLabel("Tags (comma-separated)").fill("Birds, night");
  await page.getByRole("button", { name: "Add a link" }).click();
  await page.getByLabel("Link 1 label").fill("Our blog");
  await page.getByLabel("Link 1 address").fill("https://example.org/owls");
  await page.getByLabel(/Other languages/).fill("fr");
  await page.getByRole("button", { name: "Save project" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const saved = (await (await request.get(`/api/projects/${project.id}`, { headers: api })).json()).projects[0];
  expect(saved).toMatchObject({
    description: "Owls at night",
    researcher_quote: "Every owl counts.",
    available_languages: ["en", "fr"],
  });
  expect(saved.tags.sort()).toEqual(["birds", "nature", "night"]);
  expect(saved.urls).toEqual([expect.objectContaining({ label: "Our blog", url: "https://example.org/owls" })]);

  // An avatar, uploaded and shown.
  await page.getByLabel(/Upload an avatar/).setInputFiles({ name: "owl.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByRole("status").filter({ hasText: "Avatar uploaded." })).toBeVisible();
  await expect(page.getByRole("img", { name: "Current avatar" })).toBeVisible();

  // An about page, in the primary language, shown on the project's pages.
  await page.getByLabel("Page", { exact: true }).selectOption("team");
  await page.getByLabel("Page title").fill("The owl team");
  await page.getByLabel("Page content (Markdown)").fill("We are **night owls**.");
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Page saved." })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/lab-details-1280.png", fullPage: true });

  // The team: a collaborator invited by login.
  await page.getByRole("navigation", { name: "Project builder" }).getByRole("link", { name: "Collaborators" }).click();
  await expect(page.getByText("The owner's role is fixed.")).toBeVisible();
  await page.getByLabel("Their login").fill(helper.login);
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByRole("status").filter({ hasText: "joined the team as collaborator" })).toBeVisible();
  await expect(page.getByRole("button", { name: `Remove ${helper.display_name}` })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/lab-collaborators-1280.png", fullPage: true });

  // The collaborator edits the workflow in the lab.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const helperPage = await other.newPage();
  await signIn(helperPage, helper.login, helper.password);
  await helperPage.goto(`/lab/projects/${project.id}/workflows/${workflow.workflowId}`);
  await helperPage.getByLabel("Task 1 question").fill("Is there an owl?");
  await helperPage.getByRole("button", { name: "Save workflow" }).click();
  await expect(helperPage.getByRole("status").filter({ hasText: "Saved" })).toContainText("Saved: version");
  const edited = (await (await request.get(`/api/workflows/${workflow.workflowId}`, { headers: api })).json()).workflows[0];
  expect(edited.tasks.T0.question).toBe("Is there an owl?");

  // Removed, the collaborator no longer reaches the lab's pages of the project.
  await page.getByRole("button", { name: `Remove ${helper.display_name}` }).click();
  await expect(page.getByRole("button", { name: `Remove ${helper.display_name}` })).toHaveCount(0);
  const gone = await helperPage.goto(`/lab/projects/${project.id}/details`);
  expect(gone?.status()).toBe(404);
  await other.close();

  // The about page is on the project's pages.
  await page.goto(`/projects/${project.id}/about/team`);
  await expect(page.getByText("night owls")).toBeVisible();

  // Deleted after typing its name.
  await page.goto(`/lab/projects/${project.id}/details`);
  const remove = page.getByRole("button", { name: "Delete project" });
  await expect(remove).toBeDisabled();
  await page.getByLabel(/Type the project's name/).fill(name);
  await remove.click();
  await expect(page).toHaveURL(/\/lab$/);
  expect((await request.get(`/api/projects/${project.id}`, { headers: api })).status()).toBe(404);
});
