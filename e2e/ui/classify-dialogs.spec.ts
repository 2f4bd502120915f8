// The classify page's dialogs, its field guide panel and its finish, as a volunteer meets them in chromium
// at 1280 and 375 px: every dialog centred (the CSS reset took the native centring away once), labelled
// by its heading, closed by ×, Escape and a click on the backdrop, the focus back where it came from; the
// field guide beside the subject rather than over it; the drawing area's focus ring unclipped; handles a
// finger can take; the subject's metadata as a list; the lab's export link on the page's own origin.
// Screenshots of each into test-results/screenshots/.
import fs from "node:fs";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { scan, shot } from "../a11y";
import { E2E_PORT } from "../env";
import { accessToken, API_ACCEPT, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

const picture = (label: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#334"/>` +
  `<circle cx="200" cy="150" r="70" fill="#c96"/><text x="20" y="40" font-size="28" fill="white">${label}</text></svg>`;
type Json = Record<string, unknown>;

/** A project with a workflow on two subjects (their pictures served from a fake host), its tutorial and field guide. */
async function setUp(request: APIRequestContext, page: Page, tasks: Json, metadata: Json = {}) {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const post = async (url: string, data: Json) => {
    const res = await request.post(url, { headers, data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as Record<string, { id: string }[]>;
  };
  const project = await createProject(request, token, { display_name: uniqueName("Dialogs") });
  const workflow = (
    await post("/api/workflows", { workflows: { display_name: "Owls", tasks, first_task: "T0", links: { project: project.id } } })
  ).workflows[0];
  const host = `https://${uniqueName("dlg").toLowerCase()}.example.org`;
  const ids: string[] = [];
  for (const n of [1, 2])
    ids.push(
      (
        await post("/api/subjects", {
          subjects: { locations: [{ "image/svg+xml": `${host}/${n}.svg` }], metadata, links: { project: project.id } },
        })
      ).subjects[0].id,
    );
  await post("/api/subject_sets", {
    subject_sets: { display_name: uniqueName("set"), links: { project: project.id, workflows: [workflow.id], subjects: ids } },
  });
  await page
    .context()
    .route(`${host}/**`, (route) =>
      route.fulfill({ contentType: "image/svg+xml", body: picture(route.request().url().split("/").pop()!) }),
    );
  return { project, workflow, headers, post, host };
}

async function addHelp(s: Awaited<ReturnType<typeof setUp>>, request: APIRequestContext) {
  await s.post("/api/tutorials", {
    tutorials: {
      language: "en",
      display_name: "How to classify",
      steps: [{ content: "Look at the **image**." }, { content: "Answer the question." }],
      links: { project: s.project.id, workflows: [s.workflow.id] },
    },
  });
  const guide = (
    await s.post("/api/field_guides", {
      field_guides: {
        language: "en",
        items: [
          { title: "Barn owl", content: "A pale, heart-shaped face." },
          { title: "Tawny owl", content: "Brown, with dark eyes. Hoots at *night*." },
        ],
        links: { project: s.project.id },
      },
    })
  ).field_guides[0];
  const icon = (
    await s.post(`/api/field_guides/${guide.id}/attached_images`, {
      media: { content_type: "image/png", src: `${s.host}/barn-owl.png`, external_link: true },
    })
  ).media[0];
  const etag = (await request.get(`/api/field_guides/${guide.id}`, { headers: s.headers })).headers().etag;
  const put = await request.put(`/api/field_guides/${guide.id}`, {
    headers: { ...s.headers, "If-Match": etag },
    data: {
      field_guides: {
        items: [
          { title: "Barn owl", content: "A pale, heart-shaped face.", icon: icon.id },
          { title: "Tawny owl", content: "Brown, with dark eyes. Hoots at *night*." },
        ],
      },
    },
  });
  expect(put.status(), await put.text()).toBe(200);
}

async function currentSubject(page: Page) {
  const image = page.getByRole("img", { name: /^Subject \d+, image 1 of 1$/ });
  await expect(image).toBeVisible();
}

/** The dialog on screen: inside the viewport, centred in it (within 3 px), labelled by its heading, with a visible ×. */
async function expectWellPlaced(page: Page, dialog: Locator, title: string) {
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  const vp = page.viewportSize()!;
  const where = `${title} at ${vp.width} px: ${JSON.stringify(box)}`;
  expect(box.x, where).toBeGreaterThanOrEqual(0);
  expect(box.y, where).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, where).toBeLessThanOrEqual(vp.width);
  expect(box.y + box.height, where).toBeLessThanOrEqual(vp.height);
  expect(Math.abs(box.x + box.width / 2 - vp.width / 2), where).toBeLessThanOrEqual(3);
  expect(Math.abs(box.y + box.height / 2 - vp.height / 2), where).toBeLessThanOrEqual(3);
  const labelled = await dialog.evaluate((d) => {
    const heading = document.getElementById(d.getAttribute("aria-labelledby") ?? "");
    return heading ? `${heading.tagName} ${heading.textContent}` : null;
  });
  expect(labelled, `${title} labelled by its heading`).toMatch(new RegExp(`^H[23] ${title}`));
  await expect(dialog.getByRole("button", { name: "Close", exact: true })).toBeVisible();
}

/** The element that has the focus, described (the body when none). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return a === document.body || !a ? "body" : `${a.tagName.toLowerCase()} ${a.getAttribute("aria-label") ?? a.textContent?.trim()}`;
  });

test("every dialog of the classify page: centred, labelled, closed by ×, Escape and the backdrop, the focus back at its opener", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const tasks = { T0: { type: "single", question: "Is there an owl?", answers: [{ label: "Yes" }, { label: "No" }] } };
  const s = await setUp(request, page, tasks);
  await addHelp(s, request);
  const volunteer = newUser("ui_dlg");
  await registerUser(request, volunteer);
  await signIn(page, volunteer.login, volunteer.password);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/projects/${s.project.id}/classify?workflow=${s.workflow.id}`);

  // The tutorial opens by itself on the first visit; closing it, the focus goes to the task's first answer.
  const tutorial = page.getByRole("dialog", { name: "How to classify" });
  await expect(tutorial).toBeVisible();
  await currentSubject(page);
  await expectWellPlaced(page, tutorial, "How to classify");
  await shot(page, "classify-dialog-tutorial");
  await scan(page, "the tutorial dialog");
  await page.keyboard.press("Escape");
  await expect(tutorial).toBeHidden();
  await expect(page.getByLabel("Yes")).toBeFocused();

  const opener = {
    tutorial: page.getByRole("button", { name: "Tutorial", exact: true }),
    shortcuts: page.getByRole("button", { name: "Keyboard shortcuts" }),
    collect: page.getByRole("button", { name: "Add to collection" }),
  };
  const dialogs: [keyof typeof opener, Locator, string][] = [
    ["tutorial", tutorial, "How to classify"],
    ["shortcuts", page.getByRole("dialog", { name: "Keyboard shortcuts" }), "Keyboard shortcuts"],
    ["collect", page.getByRole("dialog", { name: /^Add subject \d+ to a collection$/ }), "Add subject \\d+ to a collection"],
  ];
  for (const [key, dialog, title] of dialogs) {
    // Open from its button; × closes it, the focus back on the button.
    await opener[key].click();
    await expectWellPlaced(page, dialog, title);
    expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `${key}: the focus moves into the dialog`).toBe(true);
    await shot(page, `classify-dialog-${key}`);
    await scan(page, `the ${key} dialog`);
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(opener[key], `${key}: focus back after ×`).toBeFocused();
    // Escape closes it.
    await opener[key].focus();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener[key], `${key}: focus back after Escape`).toBeFocused();
    // A click on the backdrop (outside the dialog) closes it.
    await opener[key].click();
    await expect(dialog).toBeVisible();
    await page.mouse.click(8, 8);
    await expect(dialog).toBeHidden();
    await expect(opener[key], `${key}: focus back after the backdrop`).toBeFocused();
  }

  // A dialog taller than the screen scrolls inside and keeps its × in view.
  await page.setViewportSize({ width: 1280, height: 360 });
  await opener.shortcuts.click();
  const shortcuts = dialogs[1][1];
  await expectWellPlaced(page, shortcuts, "Keyboard shortcuts");
  await page.keyboard.press("Escape");

  // On a phone: the same dialogs inside the screen, "?" opening the shortcuts (no button there).
  await page.setViewportSize({ width: 375, height: 812 });
  for (const [key, dialog, title] of dialogs) {
    if (key === "shortcuts") {
      await page.getByLabel("Yes").focus();
      await page.keyboard.press("?");
    } else await opener[key].click();
    await expectWellPlaced(page, dialog, title);
    await shot(page, `classify-dialog-${key}`);
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await expect(dialog).toBeHidden();
    expect(await focused(page), `${key}: the focus back at 375 px`).not.toBe("body");
    // The shortcuts' opener was the answer that had the focus when "?" was pressed.
    await expect(
      key === "shortcuts" ? page.getByLabel("Yes") : opener[key],
      `${key}: the focus back on its opener at 375 px`,
    ).toBeFocused();
  }
});

test("the field guide: a panel beside the subject, which stays visible and usable; a sheet on a phone", async ({ page, request }) => {
  const tasks = { T0: { type: "single", question: "Is there an owl?", answers: [{ label: "Yes" }, { label: "No" }] } };
  const s = await setUp(request, page, tasks);
  await addHelp(s, request);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/projects/${s.project.id}/classify?workflow=${s.workflow.id}`);
  await page.getByRole("dialog", { name: "How to classify" }).getByRole("button", { name: "Close", exact: true }).click();
  await currentSubject(page);

  const open = page.getByRole("button", { name: "Field guide" });
  await open.click();
  const panel = page.getByRole("dialog", { name: "Field guide" });
  await expect(panel).toBeVisible();
  expect(await panel.evaluate((p) => p.contains(document.activeElement)), "the focus moves into the panel").toBe(true);
  // Beside the subject: both in view, side by side, the subject not dimmed or inert.
  const subject = page.getByTestId("subject-viewport");
  const a = (await panel.boundingBox())!;
  const b = (await subject.boundingBox())!;
  const overlap =
    Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
    Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  expect(overlap, `panel ${JSON.stringify(a)} and subject ${JSON.stringify(b)}`).toBe(0);
  expect(a.x + a.width).toBeLessThanOrEqual(1280);
  expect(b.width).toBeGreaterThan(400);
  await expect(page.locator("[inert]")).toHaveCount(0);
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect(page.getByTestId("view-state")).toContainText("Zoom 150%");
  await page.getByLabel("Yes").check();
  await expect(page.getByLabel("Yes")).toBeChecked();
  // Large reference images: an item opened shows its picture across the panel.
  await panel.getByText("Barn owl").click();
  const image = panel.getByTestId("field-guide-image");
  await expect(image).toBeVisible();
  expect((await image.boundingBox())!.width).toBeGreaterThanOrEqual(240);
  await expect(panel).toContainText("A pale, heart-shaped face.");
  await shot(page, "classify-field-guide");
  await scan(page, "the field guide panel");
  // Escape in the panel closes it, the focus back on its button; × does the same.
  await panel.getByText("Barn owl").focus();
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(open).toBeFocused();
  await open.click();
  await panel.getByRole("button", { name: "Close", exact: true }).click();
  await expect(panel).toBeHidden();
  await expect(open).toBeFocused();

  // On a phone it covers the subject, as a sheet inside the screen with a visible ×; what it covers is inert,
  // so Tab never takes the focus to an element hidden behind it.
  await page.setViewportSize({ width: 375, height: 812 });
  await open.click();
  await expect(panel).toBeVisible();
  const sheet = (await panel.boundingBox())!;
  expect(sheet.x).toBeGreaterThanOrEqual(0);
  expect(sheet.x + sheet.width).toBeLessThanOrEqual(375);
  const close = panel.getByRole("button", { name: "Close", exact: true });
  await expect(close).toBeInViewport();
  await expect(close).toBeFocused();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    expect(
      await panel.evaluate((p) => p.contains(document.activeElement) || document.activeElement === document.body),
      `Tab ${i + 1} stays in the sheet`,
    ).toBe(true);
  }
  await panel.getByText("Tawny owl").click();
  await shot(page, "classify-field-guide");
  await close.click();
  await expect(panel).toBeHidden();
  await expect(open).toBeFocused();
  await open.click();
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(open).toBeFocused();
});

/**
 * Whether the focused element's ring is drawn in full: the ring of the focused element or of an ancestor
 * showing it for it (an outline, or a box-shadow ring) lies inside every ancestor that clips, and inside the window.
 */
const ringVisible = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as Element;
    const candidates: Element[] = [];
    for (let e: Element | null = active; e && e !== document.body; e = e.parentElement) candidates.push(e);
    const report: string[] = [];
    for (const el of candidates) {
      const cs = getComputedStyle(el);
      if (cs.display === "none" || cs.visibility === "hidden") continue;
      const width = cs.outlineStyle !== "none" ? Number.parseFloat(cs.outlineWidth) : 0;
      const shadow = cs.boxShadow !== "none" ? Math.max(0, ...[...cs.boxShadow.matchAll(/(-?[\d.]+)px/g)].map((m) => Number(m[1]))) : 0;
      if (width < 2 && shadow < 2) continue;
      const grow = width >= 2 ? Math.max(0, Number.parseFloat(cs.outlineOffset) + width) : cs.boxShadow.includes("inset") ? 0 : shadow;
      const r = el.getBoundingClientRect();
      const ring = { left: r.left - grow, top: r.top - grow, right: r.right + grow, bottom: r.bottom + grow };
      let clipped = ring.left < 0 || ring.top < 0 || ring.right > innerWidth || ring.bottom > innerHeight;
      for (let p = el.parentElement; p && !clipped; p = p.parentElement) {
        const o = getComputedStyle(p);
        if (o.overflowX === "visible" && o.overflowY === "visible") continue;
        const c = p.getBoundingClientRect();
        clipped = ring.left < c.left - 0.5 || ring.top < c.top - 0.5 || ring.right > c.right + 0.5 || ring.bottom > c.bottom + 0.5;
      }
      report.push(`${el.tagName}${el === active ? " (focused)" : ""}: ${JSON.stringify(ring)}${clipped ? " clipped" : ""}`);
      if (!clipped) return { ok: true, report };
    }
    return { ok: false, report };
  });

const drawingTasks = {
  T0: { type: "drawing", instruction: "Box each owl.", tools: [{ type: "rectangle", label: "Owl", color: "#ff0000" }] },
};

test("the drawing area's keyboard focus ring is drawn in full, at 1280 and 375 px", async ({ page, request }) => {
  const s = await setUp(request, page, drawingTasks);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/projects/${s.project.id}/classify?workflow=${s.workflow.id}`);
    await currentSubject(page);
    const layer = page.getByTestId("drawing-layer");
    await expect(layer).toBeVisible();
    await page.getByRole("button", { name: "Reset view" }).focus();
    // Tab to the image (it pans), then to the drawing area: each shows its ring in full.
    await page.keyboard.press("Tab");
    await expect(page.getByTestId("subject-viewport")).toBeFocused();
    const viewportRing = await ringVisible(page);
    expect(viewportRing.ok, `the image's ring at ${width} px: ${viewportRing.report.join("; ")}`).toBe(true);
    await page.keyboard.press("Tab");
    await expect(layer).toBeFocused();
    const layerRing = await ringVisible(page);
    expect(layerRing.ok, `the drawing area's ring at ${width} px: ${layerRing.report.join("; ")}`).toBe(true);
    await shot(page, "classify-drawing-focus");
  }
});

test("drawn shapes' handles are at least 24 px on a touch screen", async ({ browser, request }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const s = await setUp(request, page, drawingTasks);
  await page.goto(`/projects/${s.project.id}/classify?workflow=${s.workflow.id}`);
  await currentSubject(page);
  const layer = page.getByTestId("drawing-layer");
  await expect(layer).toBeVisible();
  // A rectangle drawn with the keyboard's crosshair (the same marks as a finger's drag), then chosen with a tap.
  await layer.focus();
  await page.keyboard.press("Enter");
  for (let i = 0; i < 2; i++) await page.keyboard.press("Shift+ArrowRight");
  for (let i = 0; i < 2; i++) await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("Enter");
  const mark = page.getByTestId("mark-0");
  await expect(mark).toBeVisible();
  const m = (await mark.boundingBox())!;
  await page.touchscreen.tap(m.x + m.width / 2, m.y + 2);
  const handles = page.locator("[data-testid^='mark-0-handle-']");
  await expect(handles.first()).toBeVisible();
  const count = await handles.count();
  expect(count).toBeGreaterThanOrEqual(2);
  for (let i = 0; i < count; i++) {
    const box = (await handles.nth(i).boundingBox())!;
    expect(box.width, `handle ${i}: ${JSON.stringify(box)}`).toBeGreaterThanOrEqual(24);
    expect(box.height, `handle ${i}: ${JSON.stringify(box)}`).toBeGreaterThanOrEqual(24);
  }
  await shot(page, "classify-drawing-touch-handles");
  await context.close();
});

test("the subject's metadata: a list of names and values, the hidden fields left out", async ({ page, request }) => {
  const tasks = { T0: { type: "single", question: "Is there an owl?", answers: [{ label: "Yes" }, { label: "No" }] } };
  const s = await setUp(request, page, tasks, {
    "#secret": "hidden from volunteers",
    "!until_retired": "also hidden",
    "//comment": "hidden as the established front end hides it",
    " #spaced": "hidden too",
    Year: 1890,
    Tags: ["owl", "night"],
    Place: { town: "Oxford", county: "Oxfordshire" },
    Source: "https://archive.example.org/owls/1",
  });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/projects/${s.project.id}/classify?workflow=${s.workflow.id}`);
    await currentSubject(page);
    await page.getByText("Subject metadata", { exact: true }).click();
    const list = page.getByRole("list", { name: "Subject metadata" }).or(page.locator("dl[aria-label='Subject metadata']"));
    await expect(list).toBeVisible();
    const rows = await list.evaluate((dl) =>
      [...dl.querySelectorAll(":scope > div, :scope > dt")].map((row) => {
        const dt = row.tagName === "DT" ? row : row.querySelector("dt");
        const dd = row.tagName === "DT" ? row.nextElementSibling : row.querySelector("dd");
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, with breaks between a nested list's names and values
        return [dt?.textContent?.trim(), (dd as HTMLElement | null)?.innerText.trim().replace(/\s+/g, " ")];
      }),
    );
    // In the order the database keeps them (jsonb's).
    expect(rows.sort()).toEqual([
      ["Place", "town Oxford county Oxfordshire"],
      ["Source", "https://archive.example.org/owls/1"],
      ["Tags", "owl, night"],
      ["Year", "1890"],
    ]);
    await expect(list.getByRole("link", { name: "https://archive.example.org/owls/1" })).toHaveAttribute(
      "href",
      "https://archive.example.org/owls/1",
    );
    expect(await list.textContent()).not.toMatch(/[{}[\]"]/); // no JSON
    await shot(page, "classify-metadata", true);
  }
});

test("the lab's export link follows the origin the page was loaded from", async ({ browser, request }) => {
  test.setTimeout(90_000);
  const owner = newUser("lab_origin");
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Origin") });
  const wf = await request.post("/api/workflows", {
    headers,
    data: {
      workflows: {
        display_name: "Q",
        tasks: { T0: { type: "single", question: "?", answers: [{ label: "Yes" }, { label: "No" }] } },
        first_task: "T0",
        links: { project: project.id },
      },
    },
  });
  expect(wf.status()).toBe(201);
  const workflowId = (await wf.json()).workflows[0].id as string;
  const requested = await request.post(`/api/workflows/${workflowId}/classifications_export`, {
    headers,
    data: { media: { content_type: "text/csv" } },
  });
  expect(requested.status(), await requested.text()).toBe(201);
  // The server names its files under its configured address (localhost here); the page is opened by another name.
  const other = `http://127.0.0.1:${E2E_PORT}`;
  const context = await browser.newContext({ baseURL: other });
  const page = await context.newPage();
  await signIn(page, owner.login, owner.password);
  await page.goto(`/lab/projects/${project.id}/workflows/${workflowId}/monitor`);
  const link = page
    .getByRole("region", { name: "Classifications export" })
    .getByRole("link", { name: "Download the classifications export (CSV)" });
  await expect(link).toBeVisible({ timeout: 30_000 });
  const href = await link.evaluate((a) => (a as HTMLAnchorElement).href);
  expect(new URL(href).origin).toBe(new URL(page.url()).origin);
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(fs.readFileSync((await download.path())!, "utf8")).toMatch(/^classification_id,/);
  await context.close();
});
