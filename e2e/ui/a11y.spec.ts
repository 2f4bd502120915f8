// The volunteer's pages for everyone: an axe-core scan of the home, project, classify, account and stats
// pages (no serious or critical violations), screenshots of each at 1280 and 375 px wide kept as test artifacts
// (test-results/screenshots/), and a question answered with the keyboard alone, with a visible focus ring.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { SHOTS, scan, shoot } from "../a11y";
import { accessToken, API_ACCEPT, classifiableWorkflow, classify, createProject, uniqueName, postClassification } from "../support";

const picture =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#334"/>' +
  '<circle cx="200" cy="150" r="60" fill="#eee"/></svg>';

async function setUp(request: APIRequestContext, page: Page) {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Accessible") });
  const tasks = { T0: { type: "single", question: "Is there a moon?", answers: [{ label: "Yes" }, { label: "No" }] } };
  const wf = await request.post("/api/workflows", {
    headers,
    data: { workflows: { display_name: "Moons", tasks, first_task: "T0", links: { project: project.id } } },
  });
  const workflow = (await wf.json()).workflows[0];
  const media = `https://media.example.org/${uniqueName("a11y")}`;
  const ids: string[] = [];
  for (const n of [1, 2, 3]) {
    const s = await request.post("/api/subjects", {
      headers,
      data: { subjects: { locations: [{ "image/svg+xml": `${media}/${n}.svg` }], links: { project: project.id } } },
    });
    ids.push((await s.json()).subjects[0].id);
  }
  const set = await request.post("/api/subject_sets", {
    headers,
    data: { subject_sets: { display_name: uniqueName("set"), links: { project: project.id, workflows: [workflow.id], subjects: ids } } },
  });
  const setId: string = (await set.json()).subject_sets[0].id;
  await page.route(`${media}/**`, (route) => route.fulfill({ contentType: "image/svg+xml", body: picture }));
  return { project, workflow, headers, setId };
}

test("home, project and classify pages: no serious axe violations; screenshots at 1280 and 375 px", async ({ page, request }) => {
  const { project, headers, setId } = await setUp(request, page);
  // A drawing workflow on the same subjects, for the classify page with its tools.
  const drawing = await request.post("/api/workflows", {
    headers,
    data: {
      workflows: {
        display_name: "Craters",
        tasks: { T0: { type: "drawing", instruction: "Mark each crater.", tools: [{ type: "point", label: "Crater", color: "#ff0000" }] } },
        first_task: "T0",
        links: { project: project.id, subject_sets: [setId] },
      },
    },
  });
  expect(drawing.status(), await drawing.text()).toBe(201);
  const drawingId = (await drawing.json()).workflows[0].id;
  const pages: [string, string, () => Promise<void>][] = [
    ["home", "/", async () => void (await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible())],
    [
      "project",
      `/projects/${project.id}`,
      async () => void (await expect(page.getByRole("heading", { name: project.display_name })).toBeVisible()),
    ],
    [
      "classify",
      `/projects/${project.id}/classify`,
      async () => void (await expect(page.getByRole("img", { name: /^Subject \d+/ })).toBeVisible()),
    ],
    [
      "classify-drawing",
      `/projects/${project.id}/classify?workflow=${drawingId}`,
      async () => void (await expect(page.getByText("Mark each crater.")).toBeVisible()),
    ],
  ];
  for (const [name, url, ready] of pages) {
    await page.goto(url);
    await ready();
    await scan(page, name);
    await shoot(page, name);
  }
  for (const name of ["home", "project", "classify", "classify-drawing"])
    for (const w of [1280, 375]) expect(fs.statSync(path.join(SHOTS, `${name}-${w}.png`)).size).toBeGreaterThan(1000);
});

test("account and stats pages, and the header on a phone: no serious axe violations; screenshots at 1280 and 375 px", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // A classification, so the stats page shows its chart, summary and table.
  const token = await accessToken(request);
  const counted = await createProject(request, token, { display_name: uniqueName("Counted") });
  await classify(request, counted.id, await classifiableWorkflow(request, token, counted.id, 1), 1);
  await expect.poll(async () => (await (await request.get(`/counts/classifications?project_id=${counted.id}`)).json()).total_count).toBe(1);
  const pages: [string, string, string][] = [
    ["sign-in", "/sign-in", "Sign in"],
    ["sign-up", "/sign-up", "Create an account"],
    ["stats", `/stats?project_id=${counted.id}`, "Classification statistics"],
  ];
  for (const [name, url, heading] of pages) {
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    if (name === "stats") await expect(page.getByRole("img", { name: /^Bar chart of classifications/ })).toBeVisible();
    await scan(page, name);
    await shoot(page, name);
  }

  // The header keeps to one line on a phone: its page links are behind a Menu button.
  const header = page.locator("body > header");
  const heightAt = async (width: number) => {
    await page.setViewportSize({ width, height: 812 });
    return (await header.boundingBox())!.height;
  };
  const wide = await heightAt(1280);
  const menu = page.getByRole("button", { name: "Menu" });
  const statistics = header.getByRole("link", { name: "Statistics", exact: true }); // the footer has one too
  await expect(menu).toBeHidden();
  await expect(statistics).toBeVisible();
  expect(await heightAt(375), "the header at 375 px: one line (a second would add 28 px or more)").toBeLessThan(wide + 8);
  const middle = async (name: string) => {
    const box = (await page.getByRole("link", { name, exact: true }).first().boundingBox())!;
    return box.y + box.height / 2;
  };
  expect(Math.abs((await middle("Quorum")) - (await middle("Register")))).toBeLessThan(4);
  await expect(statistics).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(statistics).toBeVisible();
  await scan(page, "header-menu");
  await page.screenshot({ path: path.join(SHOTS, "header-menu-375.png") });
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Projects", exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  await expect(statistics).toBeHidden();
  for (const name of ["sign-in", "sign-up", "stats"])
    for (const w of [1280, 375]) expect(fs.statSync(path.join(SHOTS, `${name}-${w}.png`)).size).toBeGreaterThan(1000);
});

test("a question classified with the keyboard alone, focus always visible", async ({ page, request }) => {
  const { project, workflow, headers } = await setUp(request, page);
  await page.goto(`/projects/${project.id}/classify`);
  const image = page.getByRole("img", { name: /^Subject \d+/ });
  await expect(image).toBeVisible();
  const first = (await image.getAttribute("alt"))!.match(/Subject (\d+)/)![1];

  // Tab until the first answer has focus, choosing it with the arrow keys as radio groups do.
  const yes = page.getByLabel("Yes", { exact: true });
  for (let i = 0; i < 40 && !(await yes.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(yes).toBeFocused();
  const ring = async () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const s = getComputedStyle(el);
      const label = el.closest("label");
      const l = label ? getComputedStyle(label) : null;
      // A visible focus indicator: an outline or ring on the control or its label.
      return (
        (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) ||
        s.boxShadow !== "none" ||
        (!!l && ((l.outlineStyle !== "none" && parseFloat(l.outlineWidth) > 0) || l.boxShadow !== "none"))
      );
    });
  expect(await ring(), "focus ring on the answer").toBe(true);
  await page.keyboard.press("Space");
  await expect(yes).toBeChecked();
  const done = page.getByRole("button", { name: "Done" });
  for (let i = 0; i < 10 && !(await done.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(done).toBeFocused();
  expect(await ring(), "focus ring on Done").toBe(true);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("img", { name: /^Subject \d+/ })).not.toHaveAttribute("alt", new RegExp(`^Subject ${first},`));

  // Stored with the answer chosen (anonymous classifications are read back through the project's list).
  await expect
    .poll(async () => {
      const res = await request.get(`/api/classifications/project?project_id=${project.id}&workflow_id=${workflow.id}`, { headers });
      return ((await res.json()).classifications ?? []).map((c: { annotations: unknown; links: { subjects: string[] } }) => [
        c.links.subjects[0],
        c.annotations,
      ]);
    })
    .toEqual([[first, [{ task: "T0", value: 0 }]]]);
});

test("the lab's pages: no serious axe violations, no error logged; screenshots at 1280 and 375 px", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { project, workflow, headers } = await setUp(request, page);
  // Onboarding to edit, so the scan sees the tutorial and field guide editors, not only their empty states.
  const onboarding = [
    [
      "/api/tutorials",
      { tutorials: { language: "en", display_name: "Start", steps: [{ content: "**Look**" }], links: { project: project.id } } },
    ],
    [
      "/api/field_guides",
      { field_guides: { language: "en", items: [{ title: "Moon", content: "Round." }], links: { project: project.id } } },
    ],
  ] as const;
  for (const [url, data] of onboarding) expect((await request.post(url, { headers, data })).status()).toBe(201);
  const { signIn } = await import("../support");
  const { ADMIN_LOGIN, ADMIN_PASSWORD } = await import("../env");
  await signIn(page, ADMIN_LOGIN, ADMIN_PASSWORD);
  // A new project's lab (no engine configuration, no export yet) logs no error and gets no failing answer.
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  const base = `/lab/projects/${project.id}`;
  const pages: [string, string, string][] = [
    ["lab-workflows", base, "Workflows"],
    ["lab-details", `${base}/details`, "Project details"],
    ["lab-collaborators", `${base}/collaborators`, "Collaborators"],
    ["lab-subjects", `${base}/subjects`, "Subjects"],
    ["lab-tutorials", `${base}/tutorials`, "Tutorials"],
    ["lab-field-guide", `${base}/field-guide`, "Field guide"],
    ["lab-translations", `${base}/translations`, "Translations"],
    ["lab-workflow", `${base}/workflows/${workflow.id}`, "Moons"],
    ["lab-engine", `${base}/workflows/${workflow.id}/engine`, "Decision engine"],
    ["lab-monitor", `${base}/workflows/${workflow.id}/monitor`, "Monitoring: Moons"],
    // The site admin's console (the signed-in user here is the admin).
    ["admin", "/admin", "Admin console"],
  ];
  for (const [name, url, heading] of pages) {
    await page.goto(url);
    await expect(
      page.getByRole("heading", { level: 1 }).filter({ hasText: heading === "Workflows" ? project.display_name : heading }),
    ).toBeVisible();
    await page.waitForLoadState("networkidle");
    await scan(page, name);
    await shoot(page, name);
  }
  expect(problems).toEqual([]);
});

test("the volunteer's own pages and the account menu: no serious axe violations; screenshots at 1280 and 375 px", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { project, workflow } = await setUp(request, page);
  const { newUser, registerUser, signIn } = await import("../support");
  const volunteer = newUser("a11y_vol");
  await registerUser(request, volunteer);
  const vToken = await accessToken(request, volunteer.login, volunteer.password);
  const mine = { Accept: API_ACCEPT, Authorization: `Bearer ${vToken}` };
  // Three classifications, a favourite and a public collection, all through the API as the volunteer.
  const subjects = (await (await request.get(`/api/subjects?project_id=${project.id}`, { headers: mine })).json()).subjects.map(
    (s: { id: string }) => s.id,
  );
  for (const subject of subjects) {
    await postClassification(request, {
      project: project.id,
      workflow: workflow.id,
      version: workflow.version,
      subjects: [subject],
      token: vToken,
    });
  }
  const made = async (collections: object) => {
    const res = await request.post("/api/collections", { headers: mine, data: { collections } });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).collections[0].id as string;
  };
  await made({ display_name: "Favourites", favorite: true, private: true, links: { project: project.id, subjects: [subjects[0]] } });
  const collection = await made({ display_name: uniqueName("Moons"), links: { projects: [project.id], subjects: subjects.slice(1) } });
  await signIn(page, volunteer.login, volunteer.password);

  const pages: [string, string, string][] = [
    ["profile", `/users/${volunteer.login}`, volunteer.display_name],
    ["favourites", "/favourites", "Favourites"],
    ["collections", "/collections", "Collections"],
    ["collection", `/collections/${collection}`, "Moons"],
    ["recents", "/recents", "Recently classified"],
    ["settings", "/settings", "Settings"],
  ];
  for (const [name, url, heading] of pages) {
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1 }).filter({ hasText: heading })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await scan(page, name);
    await shoot(page, name);
  }

  // A subject opened on its collection's page, then the account menu open, on a desktop and on a phone.
  await page.goto(`/collections/${collection}`);
  await page
    .getByRole("button", { name: /^Open subject / })
    .first()
    .click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await scan(page, "collection-subject");
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: path.join(SHOTS, `collection-subject-${width}.png`) });
  }
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId("signed-in-as").click();
  await expect(page.getByRole("link", { name: "Favourites", exact: true })).toBeVisible();
  await scan(page, "account-menu");
  await page.screenshot({ path: path.join(SHOTS, "account-menu-1280.png") });
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByTestId("signed-in-as")).toBeHidden();
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("link", { name: "Settings", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await scan(page, "account-menu-phone");
  await page.screenshot({ path: path.join(SHOTS, "account-menu-375.png") });
  // The phone's header stays one line, signed in.
  expect((await page.locator("body > header").boundingBox())!.height).toBeLessThan(70);
  for (const [name] of pages)
    for (const w of [1280, 375]) expect(fs.statSync(path.join(SHOTS, `${name}-${w}.png`)).size).toBeGreaterThan(1000);
});
