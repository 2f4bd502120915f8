// A researcher gives volunteers their onboarding in the lab: a tutorial of two steps (one with an image,
// replaced once; a step with an image added and removed, leaving no medium; steps reordered from the
// keyboard) linked to the workflow, and a field guide of one item with an icon;
// a volunteer opening the classify page sees the tutorial with its Markdown rendered and opens the guide.
import { expect, test } from "@playwright/test";
import { accessToken, API_ACCEPT, classifiableWorkflow, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

// A 2×2 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGP8z8Dwn4EIwESMolGF1AMAKr4DAiTjzGsAAAAASUVORK5CYII=",
  "base64",
);

test("a tutorial and a field guide built in the lab reach the volunteer, Markdown rendered", async ({ page, request, browser }) => {
  const owner = newUser("lab_onboard");
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  const project = await createProject(request, token, { display_name: uniqueName("Owls") });
  const w = await classifiableWorkflow(request, token, project.id, 1);
  await signIn(page, owner.login, owner.password);

  // The tutorial: created, two steps, the first with an image, reordered by keyboard and back, linked, saved.
  await page.goto(`/lab/projects/${project.id}/tutorials`);
  const panel = page.getByRole("region", { name: "Tutorials" });
  await panel.getByLabel("New tutorial's name").fill("Welcome");
  await panel.getByRole("button", { name: "Create tutorial" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "The tutorial was created." })).toBeVisible();
  await panel.getByLabel("Step 1 content (Markdown)").fill("Look for **half hidden** owls.");
  await panel.getByLabel("Step 1 image").setInputFiles({ name: "owl.png", mimeType: "image/png", buffer: PNG });
  await expect(panel.getByRole("status").filter({ hasText: "Image added to step 1" })).toBeVisible();
  const preview = panel.getByTestId("tutorial-preview");
  await expect(preview.getByTestId("tutorial-step-media")).toBeVisible();
  await expect(preview.locator("strong")).toHaveText("half hidden");
  // Media the editor uploaded and nothing uses any more leave at once: a replaced image, a removed step's.
  const api = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const tutorialId = (await (await request.get(`/api/tutorials?project_id=${project.id}`, { headers: api })).json()).tutorials[0].id;
  const media = async () =>
    (await (await request.get(`/api/tutorials/${tutorialId}/attached_images`, { headers: api })).json()).media.map(
      (m: { id: string }) => m.id,
    );
  const [replaced] = await media();
  await panel.getByLabel("Replace the step 1 image").setInputFiles({ name: "owl2.png", mimeType: "image/png", buffer: PNG });
  await expect.poll(media).not.toContain(replaced);
  await panel.getByRole("button", { name: "Add a step" }).click();
  await panel.getByLabel("Step 2 image").setInputFiles({ name: "gone.png", mimeType: "image/png", buffer: PNG });
  await expect(panel.getByRole("img", { name: "Step 2 image (current)" })).toBeVisible();
  await panel.getByRole("button", { name: "Remove step 2" }).click();
  await expect.poll(async () => (await media()).length).toBe(1);
  await panel.getByRole("button", { name: "Add a step" }).click();
  await panel.getByLabel("Step 2 content (Markdown)").fill("Then answer the question.");
  await panel.getByRole("button", { name: "Move down step 1" }).focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByLabel("Step 1 content (Markdown)")).toHaveValue("Then answer the question.");
  await expect(panel.getByRole("button", { name: "Move up step 2" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(panel.getByLabel("Step 1 content (Markdown)")).toHaveValue("Look for **half hidden** owls.");
  await panel.getByRole("group", { name: "Workflows that show it" }).getByRole("checkbox").check();
  await panel.getByRole("button", { name: "Save tutorial" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "The tutorial was saved." })).toBeVisible();
  const saved = (await (await request.get(`/api/tutorials?project_id=${project.id}`, { headers: api })).json()).tutorials[0];
  expect(saved.links.workflows).toEqual([w.workflowId]);
  expect(saved.steps).toEqual([
    { content: "Look for **half hidden** owls.", media: expect.any(String) },
    { content: "Then answer the question." },
  ]);
  expect(await media()).toEqual([saved.steps[0].media]); // only the medium a step names is left

  // The field guide: created, one item with an icon, saved.
  await page.getByRole("link", { name: "Field guide" }).click();
  const guide = page.getByRole("region", { name: "Field guide" });
  await guide.getByRole("button", { name: "Create the field guide" }).click();
  await guide.getByLabel("Item 1 title").fill("Barn owl");
  await guide.getByLabel("Item 1 content (Markdown)").fill("A *pale* owl.");
  await guide.getByLabel("Item 1 icon").setInputFiles({ name: "barn.png", mimeType: "image/png", buffer: PNG });
  await expect(guide.getByRole("status").filter({ hasText: "Icon added to item 1" })).toBeVisible();
  await guide.getByRole("button", { name: "Save field guide" }).click();
  await expect(guide.getByRole("status").filter({ hasText: "The field guide was saved." })).toBeVisible();

  // A volunteer (anonymous) sees both.
  const volunteer = await browser.newContext();
  const v = await volunteer.newPage();
  await v.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/png", body: PNG }));
  await v.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}`);
  const tutorial = v.getByRole("dialog", { name: "Welcome" });
  await expect(tutorial.locator("strong")).toHaveText("half hidden");
  await expect(tutorial.getByTestId("tutorial-step-media")).toBeVisible();
  await v.keyboard.press("Escape");
  await v.getByRole("button", { name: "Field guide" }).click();
  const drawer = v.getByRole("dialog", { name: "Field guide" });
  await drawer.getByText("Barn owl").click();
  await expect(drawer.locator("em")).toHaveText("pale");
  await expect(drawer.getByTestId("field-guide-icon")).toBeVisible();
  await volunteer.close();
});

test("a French translation of a tutorial step and a field guide item, made in the lab, reaches a French volunteer of a German project", async ({
  page,
  request,
  browser,
}) => {
  const owner = newUser("lab_translate");
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  // A project whose primary language is not English: its guide and tutorial are in German.
  const project = await createProject(request, token, {
    display_name: uniqueName("Eulen"),
    primary_language: "de",
    available_languages: ["de", "fr"],
  } as Parameters<typeof createProject>[2]);
  const w = await classifiableWorkflow(request, token, project.id, 1);
  const api = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const tutorial = await request.post("/api/tutorials", {
    headers: api,
    data: {
      tutorials: {
        language: "de",
        display_name: "Willkommen",
        steps: [{ content: "Suche **Eulen**." }],
        links: { project: project.id, workflows: [w.workflowId] },
      },
    },
  });
  expect(tutorial.status(), await tutorial.text()).toBe(201);
  const guide = await request.post("/api/field_guides", {
    headers: api,
    data: {
      field_guides: { language: "de", items: [{ title: "Schleiereule", content: "Eine *helle* Eule." }], links: { project: project.id } },
    },
  });
  expect(guide.status(), await guide.text()).toBe(201);

  // The researcher translates the tutorial's step and the guide's item into French.
  await signIn(page, owner.login, owner.password);
  await page.goto(`/lab/projects/${project.id}`);
  await page.getByRole("link", { name: "Translations" }).click();
  const panel = page.getByRole("region", { name: "Translations" });
  await panel.getByRole("combobox", { name: /^Record/ }).selectOption({ label: "Tutorial: Willkommen" });
  await expect(panel.getByRole("combobox", { name: /^Language/ })).toHaveValue("fr");
  await expect(panel.getByText("2 texts: 2 missing, 0 outdated (not saved yet).")).toBeVisible();
  await panel.getByLabel("Français (fr): steps.0.content").fill("Cherchez les **hiboux**.");
  await panel.getByRole("button", { name: "Save translation" }).click();
  await expect(panel.getByText("The Français (fr) translation was saved.")).toBeVisible();
  await expect(panel.getByText("2 texts: 1 missing, 0 outdated.")).toBeVisible();
  await panel.getByRole("combobox", { name: /^Record/ }).selectOption({ label: "Field guide" });
  await panel.getByLabel("Français (fr): items.0.title").fill("Effraie");
  await panel.getByLabel("Français (fr): items.0.content").fill("Une chouette *pâle*.");
  await panel.getByRole("button", { name: "Save translation" }).click();
  await expect(panel.getByText("2 texts: 0 missing, 0 outdated.")).toBeVisible();
  // A language code is checked before it is offered.
  await panel.getByLabel("Add a language (code)").fill("not a code");
  await panel.getByRole("button", { name: "Add language" }).click();
  await expect(panel.getByRole("alert")).toHaveText("A language code such as fr, pt-br or es_MX");

  // A volunteer who chooses French sees both in French.
  const volunteer = await browser.newContext();
  const v = await volunteer.newPage();
  await v.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/png", body: PNG }));
  await v.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}&language=fr`);
  const dialog = v.getByRole("dialog", { name: "Willkommen" });
  await expect(dialog.locator("strong")).toHaveText("hiboux");
  await v.keyboard.press("Escape");
  await v.getByRole("button", { name: "Field guide" }).click();
  const drawer = v.getByRole("dialog", { name: "Field guide" });
  await drawer.getByText("Effraie").click();
  await expect(drawer.locator("em")).toHaveText("pâle");
  await volunteer.close();
});
