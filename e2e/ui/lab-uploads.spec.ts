// The lab's uploads from the browser: an avatar and a subject file upload and show at any name of the
// server (127.0.0.1 as well as PUBLIC_URL's localhost: the signed URLs are used by path); a failed upload
// leaves no record behind and says so; a manifest import refreshes the subject list and spends its file.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { E2E_PORT } from "../env";
import { accessToken, API_ACCEPT, approveLaunch, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

// A 2×2 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGP8z8Dwn4EIwESMolGF1AMAKr4DAiTjzGsAAAAASUVORK5CYII=",
  "base64",
);

/** The image was fetched and decoded (not only an <img> element with a broken source). */
async function expectLoaded(img: Locator) {
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
}

async function newOwner(request: Parameters<typeof registerUser>[0]) {
  const owner = newUser("lab_up");
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  return { owner, token, api: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` } };
}

async function uploadSubjectFiles(page: Page, setName: string, files: string[]) {
  await page.getByLabel("Subject set name", { exact: true }).fill(setName);
  await page.getByLabel(/^Files \(one subject each/).setInputFiles(files.map((name) => ({ name, mimeType: "image/png", buffer: PNG })));
  await page.getByRole("button", { name: `Upload ${files.length} ${files.length === 1 ? "file" : "files"}` }).click();
}

test("an avatar and a subject file upload and show with the page opened at 127.0.0.1 and at localhost", async ({ browser, request }) => {
  test.setTimeout(60_000);
  const { owner, token } = await newOwner(request);
  // Public and launched, so the home page lists it with its avatar.
  const project = await createProject(request, token, { display_name: uniqueName("Hosts"), private: false, live: true });
  await approveLaunch(request, project.id);
  for (const host of ["127.0.0.1", "localhost"]) {
    // Cookies are per host name: a context of its own, signed in at that name.
    const context = await browser.newContext({ baseURL: `http://${host}:${E2E_PORT}` });
    const page = await context.newPage();
    await signIn(page, owner.login, owner.password);

    await page.goto(`/lab/projects/${project.id}/details`);
    await page.getByLabel(/Upload an avatar/).setInputFiles({ name: "owl.png", mimeType: "image/png", buffer: PNG });
    await expect(page.getByRole("status").filter({ hasText: "Avatar uploaded." })).toBeVisible();
    const avatar = page.getByRole("img", { name: "Current avatar" });
    await expectLoaded(avatar);
    expect(await avatar.getAttribute("src")).toMatch(/^\/uploads\/media\//);
    // The home page's card shows it too, by path.
    await page.goto(`/?q=${encodeURIComponent(project.display_name)}`);
    const card = page.getByTestId("project-card").filter({ hasText: project.display_name });
    await expectLoaded(card.locator("img"));
    expect(await card.locator("img").getAttribute("src")).toMatch(/^\/uploads\/media\//);

    await page.goto(`/lab/projects/${project.id}/subjects`);
    await uploadSubjectFiles(page, `At ${host}`, ["a.png"]);
    await expect(page.getByRole("status").filter({ hasText: `Subject set “At ${host}” created with 1 subjects.` })).toBeVisible();
    await page.getByRole("combobox", { name: "Subject set", exact: true }).selectOption({ label: `At ${host}` });
    await expectLoaded(page.getByRole("table").getByRole("img"));
    await context.close();
  }
});

test("a failed upload leaves no medium and no subject behind, and says so", async ({ page, request }) => {
  const { owner, token, api } = await newOwner(request);
  const project = await createProject(request, token, { display_name: uniqueName("Fails") });
  await signIn(page, owner.login, owner.password);
  // Every file PUT fails on its way to storage.
  await page.route("**/uploads/**", (route) => (route.request().method() === "PUT" ? route.fulfill({ status: 500 }) : route.fallback()));

  await page.goto(`/lab/projects/${project.id}/details`);
  await page.getByLabel(/Upload an avatar/).setInputFiles({ name: "owl.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByRole("alert").filter({ hasText: "could not be uploaded" })).toHaveText(
    "The avatar could not be uploaded (HTTP 500). Nothing was kept.",
  );
  await expect(page.getByText("None yet.").first()).toBeVisible();
  // No avatar record left: the API lists none (an empty list, as the established platform answers).
  const avatar = await request.get(`/api/projects/${project.id}/avatar`, { headers: api });
  expect(avatar.status()).toBe(200);
  expect((await avatar.json()).media).toEqual([]);

  await page.goto(`/lab/projects/${project.id}/subjects`);
  await uploadSubjectFiles(page, "Never made", ["a.png", "b.png"]);
  await expect(page.getByRole("alert").filter({ hasText: "could not be uploaded" })).toContainText(
    "could not be uploaded (HTTP 500). The subject set was not created; the 2 subjects made for it were deleted again, so nothing was kept.",
  );
  const subjects = await (await request.get(`/api/subjects?project_id=${project.id}`, { headers: api })).json();
  expect(subjects.subjects).toEqual([]);
  const sets = await (await request.get(`/api/subject_sets?project_id=${project.id}`, { headers: api })).json();
  expect(sets.subject_sets).toEqual([]);
  const counted = await (await request.get(`/api/projects/${project.id}`, { headers: api })).json();
  expect(counted.projects[0].subjects_count).toBe(0);
});

test("a manifest import refreshes the subject list, links the new set as it says, and does not import its file twice", async ({
  page,
  request,
}) => {
  const { owner, token, api } = await newOwner(request);
  const project = await createProject(request, token, { display_name: uniqueName("Manifest") });
  const wf = await request.post("/api/workflows", {
    headers: api,
    data: { workflows: { display_name: "Owl count", tasks: {}, links: { project: project.id } } },
  });
  expect(wf.status(), await wf.text()).toBe(201);
  const workflowId = (await wf.json()).workflows[0].id;
  await signIn(page, owner.login, owner.password);
  await page.goto(`/lab/projects/${project.id}/subjects`);
  await expect(page.getByText("No subject sets yet.").first()).toBeVisible();

  await page.getByLabel("New subject set name").fill("Imported");
  await expect(page.getByRole("checkbox", { name: "Link the new set to Owl count" })).toBeChecked();
  await page.getByLabel("Choose a manifest file").setInputFiles({
    name: "m.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("location\nhttps://example.org/a.png\nhttps://example.org/b.png\n"),
  });
  await expect(page.getByText("2 rows ready to import.")).toBeVisible();
  await page.getByRole("button", { name: "Import subjects" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Created the set “Imported”, linked to “Owl count”." })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Done: 2 subjects imported into the set “Imported”." })).toBeVisible({
    timeout: 30_000,
  });
  const bar = page.getByRole("progressbar", { name: "Import progress" });
  await expect(bar).toHaveAttribute("aria-valuenow", "2");
  await expect(bar).toHaveAttribute("aria-valuemax", "2");
  // The list shows the new set's subjects without a reload.
  await expect(page.getByRole("table").filter({ hasText: "2 subjects, page 1 of 1" }).getByRole("row")).toHaveCount(3);
  // The file is spent: no button imports it again until another file is chosen.
  await expect(page.getByRole("button", { name: "Import subjects" })).toHaveCount(0);
  await page.getByRole("button", { name: "Import another manifest" }).click();
  await expect(page.getByRole("button", { name: "Import subjects" })).toBeDisabled();
  const sets = await (await request.get(`/api/subject_sets?project_id=${project.id}`, { headers: api })).json();
  expect(sets.subject_sets).toEqual([expect.objectContaining({ display_name: "Imported", set_member_subjects_count: 2 })]);
  expect(sets.subject_sets[0].links.workflows).toEqual([workflowId]);
});
