import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { scan, shoot as shootBoth } from "../a11y";
import { ADMIN_LOGIN, ADMIN_PASSWORD } from "../env";
import { accessToken, API_ACCEPT, classifiableWorkflow, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

async function shoot(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  await shootBoth(page, name, { fitsPhone: true });
}

const bearer = (token: string) => ({ Accept: API_ACCEPT, Authorization: `Bearer ${token}` });

/** A project with an active workflow, linked subjects and retirement set: everything a review needs but a tutorial. */
async function almostReadyProject(request: APIRequestContext, token: string) {
  const project = await createProject(request, token, { display_name: uniqueName("Comets"), private: true });
  const { workflowId } = await classifiableWorkflow(request, token, project.id, 2);
  const wf = await request.put(`/api/workflows/${workflowId}`, {
    headers: { ...bearer(token), "If-Match": "*" },
    data: { workflows: { retirement: { criteria: "classification_count", options: { count: 3 } } } },
  });
  expect(wf.status(), await wf.text()).toBe(200);
  return project;
}

/** The stepper's current stage, as the owner's lab page says it after a reload. */
async function stageIs(page: Page, stage: string) {
  await page.reload();
  await expect(page.getByTestId("launch-stage")).toContainText(`Now: ${stage}`);
}

test("the admin console: a launch approved, a ban that ends a session, a subject limit raised, and the record of each", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const owner = newUser("launch_owner");
  await registerUser(request, owner);
  const ownerToken = await accessToken(request, owner.login, owner.password);
  const project = await almostReadyProject(request, ownerToken);
  const name = project.display_name;

  // Signed out, /admin goes to sign in and back; a signed-in non-admin gets the 404 page.
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/sign-in\?return_to=%2Fadmin$/);
  await signIn(page, owner.login, owner.password);
  const notFound = await page.goto("/admin");
  expect(notFound?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();

  // The owner's stepper: a draft, not ready without a tutorial, so no request yet.
  await page.goto(`/lab/projects/${project.id}/details`);
  await expect(page.getByTestId("launch-stage")).toContainText("Now: Draft");
  await expect(page.getByTestId("ready-tutorial")).toContainText("still to do");
  await expect(page.getByRole("button", { name: "Request beta review" })).toBeDisabled();
  await expect(page.getByText("Complete the checklist above to ask for a review.")).toBeVisible();
  const tutorial = await request.post("/api/tutorials", {
    headers: bearer(ownerToken),
    data: { tutorials: { language: "en", display_name: "Start", steps: [{ content: "Find the comet." }], links: { project: project.id } } },
  });
  expect(tutorial.status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId("ready-tutorial")).toContainText("done");
  await shoot(page, "lab-launch-stepper-draft");
  await page.getByRole("button", { name: "Request beta review" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Beta review requested." })).toBeVisible();
  await stageIs(page, "Beta review");
  // The request made the project public (by its link) and live, but the home page does not list it.
  const requested = (await (await request.get(`/api/projects/${project.id}`, { headers: bearer(ownerToken) })).json()).projects[0];
  expect(requested).toMatchObject({ private: false, live: true, beta_requested: true, beta_approved: false });

  // The admin, in a browser of their own, refuses the beta review first, with a reason the owner reads.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, ADMIN_LOGIN, ADMIN_PASSWORD);
  await admin.goto("/admin");
  await expect(admin.getByRole("heading", { name: "Admin console", level: 1 })).toBeVisible();
  const betaCard = admin.getByTestId(`review-beta-${project.id}`);
  await expect(betaCard).toContainText(`by ${owner.login}`);
  await betaCard.getByRole("button", { name: `Refuse… the beta review of ${name}` }).click();
  await betaCard.getByLabel(/Why the beta review is refused/).fill("Say what a comet looks like in the tutorial.");
  await betaCard.getByRole("button", { name: "Refuse the beta review" }).click();
  await expect(admin.getByRole("status").filter({ hasText: `${name}: beta review refused.` })).toBeVisible();
  await expect(betaCard).toHaveCount(0);
  await stageIs(page, "Draft");
  const refusal = page.getByRole("alert").filter({ hasText: "An admin refused the beta review" });
  await expect(refusal).toContainText("Say what a comet looks like in the tutorial.");
  await shoot(page, "lab-launch-stepper-refused");

  // The owner asks again; this time the admin approves.
  await page.getByRole("button", { name: "Request beta review" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Beta review requested." })).toBeVisible();
  await stageIs(page, "Beta review");
  await expect(refusal).toHaveCount(0);
  await admin.reload();
  await betaCard.getByRole("button", { name: `Approve beta review of ${name}` }).click();
  await expect(admin.getByRole("status").filter({ hasText: `${name}: beta review approved.` })).toBeVisible();
  await expect(betaCard).toHaveCount(0);

  // The owner asks for the launch; the admin approves it.
  await stageIs(page, "Beta");
  await page.getByRole("button", { name: "Request launch review" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Launch review requested." })).toBeVisible();
  await stageIs(page, "Launch review");
  await shoot(page, "lab-launch-stepper-review");
  await admin.reload();
  const launchCard = admin.getByTestId(`review-launch-${project.id}`);
  await expect(launchCard.getByRole("listitem").filter({ hasText: "A tutorial" })).toContainText("done");
  await scan(admin, "admin");
  await shoot(admin, "admin-queue");
  await launchCard.getByRole("button", { name: `Approve launch of ${name}` }).click();
  await expect(admin.getByRole("status").filter({ hasText: `${name}: launch approved.` })).toBeVisible();

  // Launched: the stepper says so and the home page lists the project.
  await stageIs(page, "Launched");
  await expect(page.getByText("The project is launched and listed on the home page.")).toBeVisible();
  await scan(page, "lab-launch-stepper");
  await shoot(page, "lab-launch-stepper-launched");
  await page.goto(`/?q=${encodeURIComponent(name)}`);
  await expect(page.getByTestId("project-card").getByRole("heading", { name })).toBeVisible();

  // A volunteer with an open session (and a token) is banned: the next request finds them signed out.
  const volunteer = newUser("banned");
  await registerUser(request, volunteer);
  const volunteerToken = await accessToken(request, volunteer.login, volunteer.password);
  const volunteerContext = await browser.newContext();
  const volunteerPage = await volunteerContext.newPage();
  await signIn(volunteerPage, volunteer.login, volunteer.password);
  await volunteerPage.goto("/lab");
  await expect(volunteerPage.getByTestId("signed-in-as")).toContainText(volunteer.display_name);
  await admin.getByLabel("Login or email (exact)").fill(volunteer.email.toUpperCase());
  await admin.getByRole("button", { name: "Find" }).click();
  const volunteerCard = admin.getByTestId(`user-${volunteer.login}`);
  await volunteerCard.getByRole("button", { name: `Ban ${volunteer.login}` }).click();
  await expect(volunteerCard.getByRole("status").filter({ hasText: "banned" })).toBeVisible();
  await expect(volunteerCard).toContainText("Banned");
  await volunteerPage.reload();
  await expect(volunteerPage.getByText("to build a project.")).toBeVisible();
  await expect(volunteerPage.getByTestId("signed-in-as")).toHaveCount(0);
  expect((await request.get("/api/me", { headers: bearer(volunteerToken) })).status()).toBe(401);
  await volunteerContext.close();

  // A builder at a subject limit of 1 is refused a second subject; the admin raises it to 5 and the same
  // upload goes through.
  const builder = newUser("limited");
  await registerUser(request, builder);
  const builderToken = await accessToken(request, builder.login, builder.password);
  const own = await createProject(request, builderToken, { display_name: uniqueName("Limits") });
  const upload = () =>
    request.post("/api/subjects", {
      headers: bearer(builderToken),
      data: { subjects: { locations: [{ "image/png": "https://example.org/s.png" }], links: { project: own.id } } },
    });
  await admin.getByLabel("Login or email (exact)").fill(builder.login);
  await admin.getByRole("button", { name: "Find" }).click();
  const builderCard = admin.getByTestId(`user-${builder.login}`);
  const setLimit = async (n: string) => {
    await builderCard.getByLabel("Subject limit").fill(n);
    // The outcome's sentence is the same each time: wait for this save's own answer.
    const saved = admin.waitForResponse((r) => r.request().method() === "PUT" && /\/api\/users\/\d+$/.test(new URL(r.url()).pathname));
    await builderCard.getByRole("button", { name: `Save limit of ${builder.login}` }).click();
    expect((await saved).status()).toBe(200);
    await expect(builderCard.getByRole("status").filter({ hasText: `Subject limit of ${builder.login} saved.` })).toBeVisible();
  };
  await setLimit("1");
  expect((await upload()).status()).toBe(201);
  expect((await upload()).status()).toBe(403);
  await setLimit("5");
  await expect(builderCard.getByLabel("Subject limit")).toHaveValue("5");
  expect((await upload()).status()).toBe(201);
  await scan(admin, "admin-user");
  await shoot(admin, "admin-user");

  // The record: each of these, newest first, with who did it.
  await admin.reload();
  const actions = admin.getByTestId("admin-action");
  const expected = [
    [builder.login, "subject limit: 1 → 5"],
    [builder.login, "subject limit: default → 1"],
    [volunteer.login, "banned: no → yes"],
    [name, "launch approved: no → yes"],
    [name, "beta approved: no → yes"],
    [name, "refused the beta review — “Say what a comet looks like in the tutorial.”"],
  ];
  for (const [i, [target, what]] of expected.entries()) {
    await expect(actions.nth(i)).toContainText(target);
    await expect(actions.nth(i)).toContainText(what);
    await expect(actions.nth(i)).toContainText(ADMIN_LOGIN);
  }
  await shoot(admin, "admin-actions");
  await adminContext.close();
});
