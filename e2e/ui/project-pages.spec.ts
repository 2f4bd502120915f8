// The home page's filters (discipline, tag, status, sort) and a project's front page: banner, calls to
// action per workflow with completeness, introduction (markdown, nothing runs), about pages, team,
// organisation, statistics, and the signed-in volunteer's recent classifications.
import { expect, test } from "@playwright/test";
import { accessToken, API_ACCEPT, classifiableWorkflow, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

test("the home page filters live projects by discipline, tag and status, and sorts them", async ({ page, request }) => {
  const token = await accessToken(request);
  const marker = uniqueName("filters").toLowerCase();
  const mk = (name: string, tags: string[], extra: Record<string, unknown> = {}) =>
    createProject(request, token, {
      display_name: `${name} ${marker}`,
      live: true,
      launch_approved: true,
      tags: [marker, ...tags],
      ...extra,
    });
  await mk("Galaxy Zoo", ["space", "galaxies"]);
  await mk("Penguin Watch", ["nature", "penguins"]);
  await mk("Old Weather", ["climate", "transcription"]);
  await mk("Draft Bugs", ["biology"], { live: false });

  await page.goto(`/?tag=${marker}`);
  // The list's cards (featured projects have a section of their own above it).
  const titles = page.getByRole("region", { name: "Projects", exact: true }).getByTestId("project-card").getByRole("heading", { level: 3 });
  await expect(titles).toHaveCount(3); // the draft is not live
  await page.getByLabel("Discipline").selectOption("Nature");
  await expect(titles).toHaveText([`Penguin Watch ${marker}`]);
  await expect(page).toHaveURL(/discipline=Nature/);
  await page.getByLabel("Discipline").selectOption("");
  await page.getByLabel("Sort by").selectOption("display_name");
  await expect(titles).toHaveText([`Galaxy Zoo ${marker}`, `Old Weather ${marker}`, `Penguin Watch ${marker}`]);
  await page.getByLabel("Tag", { exact: true }).fill("transcription");
  await page.getByRole("button", { name: "Apply tag" }).click();
  await expect(titles).toHaveText([`Old Weather ${marker}`]);
  // Back to the marker alone, then every launched project, those not live included; a public project that is
  // not launched is never listed.
  await mk("Unlaunched Moths", ["biology"], { launch_approved: false });
  await mk("Testing Bees", ["biology"], { launch_approved: false, beta_approved: true });
  await page.getByLabel("Tag", { exact: true }).fill(marker);
  await page.getByRole("button", { name: "Apply tag" }).click();
  await page.getByLabel("Status").selectOption("all");
  await expect(titles).toHaveCount(4);
  // The address keeps the choice: a reload shows the same.
  await page.reload();
  await expect(titles).toHaveCount(4);
  await expect(page.getByLabel("Sort by")).toHaveValue("display_name");
  // Projects in beta are listed on their own.
  await page.getByLabel("Status").selectOption("beta");
  await expect(titles).toHaveText([`Testing Bees ${marker}`]);
});

test("a project's front page: banner, call to action, workflows, researcher quote, introduction, about pages, team, organisation, statistics and recents", async ({
  page,
  request,
}) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, {
    display_name: uniqueName("Front page"),
    live: true,
    introduction: "Help us **count birds**.\n\n- Look closely\n- Click *Done*\n\n<script>window.hacked = true</script>",
    workflow_description: "Pick a task: *every* bird counts.",
    researcher_quote: "Your counts tell us where the birds went.\n<img src=x onerror=alert(1)>",
  });
  const w = await classifiableWorkflow(request, token, project.id, 3);
  const page1 = await request.post(`/api/projects/${project.id}/pages`, {
    headers,
    data: {
      project_pages: {
        url_key: "science_case",
        title: "Research",
        content: "## Why birds\n\nThey are [everywhere](https://example.org/birds).",
      },
    },
  });
  expect(page1.status(), await page1.text()).toBe(201);
  const org = await request.post("/api/organizations", {
    headers,
    data: { organizations: { display_name: uniqueName("Bird Org"), description: "Birders", primary_language: "en", listed: true } },
  });
  expect(org.status(), await org.text()).toBe(201);
  const orgId = (await org.json()).organizations[0].id;
  expect(
    (await request.post(`/api/organizations/${orgId}/links/projects`, { headers, data: { projects: [project.id] } })).status(),
  ).toBeLessThan(300);

  const volunteer = newUser("ui_front");
  await registerUser(request, volunteer);
  await signIn(page, volunteer.login, volunteer.password);
  await page.route("https://example.org/**", (route) =>
    route.fulfill({
      contentType: "image/png",
      body: Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"),
    }),
  );
  await page.goto(`/projects/${project.id}`);
  await expect(page.getByRole("heading", { level: 1, name: project.display_name })).toBeVisible();
  const intro = page.getByRole("region", { name: "Introduction" });
  await expect(intro.locator("strong")).toHaveText("count birds");
  await expect(intro.getByRole("listitem")).toHaveText(["Look closely", "Click Done"]);
  await expect(intro).toContainText("<script>window.hacked = true</script>"); // shown as text, never run
  expect(await page.evaluate(() => (window as unknown as { hacked?: boolean }).hacked)).toBeUndefined();
  // The call to action (Markdown) above the workflows, and the researcher quote (plain text).
  const getStarted = page.getByRole("region", { name: "Get started" });
  await expect(getStarted.locator("em")).toHaveText("every");
  await expect(getStarted).toContainText("Pick a task: every bird counts.");
  const quote = page.getByRole("region", { name: "From the researchers" });
  await expect(quote.locator("blockquote")).toHaveText("Your counts tell us where the birds went.\n<img src=x onerror=alert(1)>");
  await expect(quote.locator("img")).toHaveCount(0);
  await expect(page.getByTestId("team")).toContainText("(Owner)");
  await expect(
    page.getByRole("link", {
      name: (await (await request.get(`/api/organizations/${orgId}`, { headers })).json()).organizations[0].display_name,
    }),
  ).toBeVisible();
  await expect(page.getByTestId("recent-classifications")).toContainText("classifications in the last 30 days");
  const cta = page.getByRole("link", { name: /^Classify: / });
  await expect(cta).toHaveAttribute("href", `/projects/${project.id}/classify?workflow=${w.workflowId}`);
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-label", /0% complete/);
  await expect(page.getByTestId("recents")).toHaveCount(0);

  // An about page, with its own address and the navigation between them.
  await page.getByRole("navigation", { name: "About this project" }).getByRole("link", { name: "Research" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/about/science_case$`));
  await expect(page.getByRole("heading", { name: "Why birds" })).toBeVisible();
  await expect(page.getByRole("link", { name: "everywhere" })).toHaveAttribute("href", "https://example.org/birds");
  expect((await page.request.get(`/projects/${project.id}/about/nothing-here`)).status()).toBe(404);

  // Classify two subjects; the front page then lists them as recents.
  await page.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}`);
  for (let i = 0; i < 2; i++) {
    const image = page.getByRole("img", { name: /^Subject \d+/ });
    await expect(image).toBeVisible();
    const before = await image.getAttribute("alt");
    await page.getByLabel("Yes", { exact: true }).check();
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByRole("img", { name: /^Subject \d+/ })).not.toHaveAttribute("alt", before!);
  }
  // Saved in the background: both stored before leaving the classifier (what is pending waits for the
  // volunteer's next visit to it).
  await expect(page.getByTestId("saved-count")).toContainText("Classification saved. 2 classified");
  await expect
    .poll(async () => {
      await page.goto(`/projects/${project.id}`);
      return page.getByTestId("recents").getByRole("listitem").count();
    })
    .toBe(2);

  // The organisation's page lists the project.
  await page.getByRole("link", { name: /Bird Org/ }).click();
  await expect(page.getByRole("link", { name: project.display_name })).toBeVisible();
});

test("a volunteer who chooses a language reads the project and the workflow's tasks in it", async ({ page, request }) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Birds"), description: "Count the birds", live: true });
  const etag = (await request.get(`/api/projects/${project.id}`, { headers })).headers().etag;
  expect(
    (
      await request.put(`/api/projects/${project.id}`, {
        headers: { ...headers, "If-Match": etag },
        data: { projects: { available_languages: ["fr"] } },
      })
    ).status(),
  ).toBe(200);
  const w = await classifiableWorkflow(request, token, project.id, 2);
  const tr = (type: string, id: string, strings: Record<string, string>) =>
    request.post(`/api/translations?translated_type=${type}&translated_id=${id}`, {
      headers,
      data: { translations: { language: "fr", strings } },
    });
  expect((await tr("project", project.id, { description: "Comptez les oiseaux" })).status()).toBe(201);
  expect(
    (
      await tr("workflow", w.workflowId, {
        "tasks.T0.question": "Un oiseau ?",
        "tasks.T0.answers.0.label": "Oui",
        "tasks.T0.answers.1.label": "Non",
      })
    ).status(),
  ).toBe(201);
  const guide = await request.post("/api/field_guides", {
    headers,
    data: { field_guides: { language: "en", items: [{ title: "Robin", content: "Red breast." }], links: { project: project.id } } },
  });
  expect(guide.status(), await guide.text()).toBe(201);
  expect(
    (
      await tr("field_guide", (await guide.json()).field_guides[0].id, {
        "items.0.title": "Rouge-gorge",
        "items.0.content": "Poitrine rouge.",
      })
    ).status(),
  ).toBe(201);
  await page.route("https://example.org/**", (route) =>
    route.fulfill({ contentType: "image/svg+xml", body: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>' }),
  );

  await page.goto(`/projects/${project.id}`);
  await expect(page.getByText("Count the birds")).toBeVisible();
  await page.getByLabel("Language").selectOption("fr");
  await expect(page.getByText("Comptez les oiseaux")).toBeVisible();
  // Remembered: the classifier, reached without ?language, asks in French.
  await page.goto(`/projects/${project.id}/classify`);
  await expect(page.getByRole("group", { name: "Un oiseau ?" })).toBeVisible();
  await expect(page.getByLabel("Oui", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Field guide" }).click();
  await expect(page.getByRole("dialog", { name: "Field guide" })).toContainText("Rouge-gorge");
  await page.keyboard.press("Escape");
  await page.getByLabel("Language").selectOption("en");
  await expect(page.getByLabel("Yes", { exact: true })).toBeVisible();
});
