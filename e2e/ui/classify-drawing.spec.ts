// The volunteer classifier's drawing tools, subject viewer and the slider, shortcut and highlighter tasks:
// volunteers (anonymous and signed in) draw with every tool on several subjects, move, reshape and delete marks with the mouse
// and the keyboard, answer a mark's subtasks, mark two frames of a flipbook, draw on a zoomed, rotated and
// panned image; the classifications the research team then reads carry exactly what was drawn.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { accessToken, API_ACCEPT, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

const W = 400;
const H = 300;
const picture = (label: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#334"/>` +
  `<text x="20" y="160" font-size="36" fill="white">${label}</text></svg>`;

type Json = Record<string, unknown>;

/** A project with one workflow and subjects, their media served by the page from a fake host. */
async function setUp(
  _page: Page,
  request: APIRequestContext,
  tasks: Json,
  subjects: { locations: Record<string, string>[]; metadata?: Json }[],
) {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Draw") });
  const wf = await request.post("/api/workflows", {
    headers,
    data: { workflows: { display_name: "Draw", tasks, first_task: "T0", links: { project: project.id } } },
  });
  expect(wf.status(), await wf.text()).toBe(201);
  const workflow = (await wf.json()).workflows[0];
  const ids: string[] = [];
  for (const s of subjects) {
    const res = await request.post("/api/subjects", { headers, data: { subjects: { ...s, links: { project: project.id } } } });
    expect(res.status(), await res.text()).toBe(201);
    ids.push((await res.json()).subjects[0].id);
  }
  const set = await request.post("/api/subject_sets", {
    headers,
    data: { subject_sets: { display_name: uniqueName("set"), links: { project: project.id, workflows: [workflow.id], subjects: ids } } },
  });
  expect(set.status(), await set.text()).toBe(201);
  const classifications = async () => {
    const listed = await request.get(`/api/classifications/project?project_id=${project.id}`, { headers });
    expect(listed.status()).toBe(200);
    return (
      (await listed.json()).classifications as {
        id: string;
        annotations: { task: string; value: unknown }[];
        links: { user?: string | null; subjects: string[] };
      }[]
    ).sort((a, b) => Number(a.id) - Number(b.id));
  };
  return { project, workflow, ids, classifications };
}

const media = (host: string) => `https://${host}.example.org`;
async function serveMedia(page: Page, host: string, texts: Record<string, string> = {}) {
  await page.route(`${media(host)}/**`, (route) => {
    const name = route.request().url().split("/").pop()!;
    if (texts[name] !== undefined) return route.fulfill({ contentType: "text/plain; charset=utf-8", body: texts[name] });
    return route.fulfill({ contentType: "image/svg+xml", body: picture(name) });
  });
}

/** Expects `actual` to equal `expected` with numbers within `tol` of each other. */
function near(actual: unknown, expected: unknown, tol = 2, path = "value"): void {
  if (typeof expected === "number") {
    expect(typeof actual, path).toBe("number");
    expect(Math.abs((actual as number) - expected), `${path}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, `${path}.length`).toBe(expected.length);
    expected.forEach((e, i) => {
      near((actual as unknown[])[i], e, tol, `${path}[${i}]`);
    });
  } else if (expected && typeof expected === "object") {
    expect(Object.keys(actual as Json).sort(), path).toEqual(Object.keys(expected).sort());
    for (const [k, e] of Object.entries(expected)) near((actual as Json)[k], e, tol, `${path}.${k}`);
  } else expect(actual, path).toEqual(expected);
}

/** Screen coordinates of an image pixel while the image is neither zoomed nor rotated. */
async function at(page: Page, x: number, y: number) {
  const box = (await page.getByTestId("drawing-layer").boundingBox())!;
  return { x: box.x + (x * box.width) / W, y: box.y + (y * box.height) / H };
}
async function click(page: Page, x: number, y: number) {
  const p = await at(page, x, y);
  await page.mouse.click(p.x, p.y);
}
async function drag(page: Page, ...points: [number, number][]) {
  const [first, ...rest] = await Promise.all(points.map(([x, y]) => at(page, x, y)));
  await page.mouse.move(first.x, first.y);
  await page.mouse.down();
  for (const p of rest) await page.mouse.move(p.x, p.y, { steps: 4 });
  await page.mouse.up();
}
const useTool = (page: Page, label: string) => page.getByRole("radio", { name: new RegExp(`^${label} \\(`) }).check();

const TOOLS = [
  {
    type: "point",
    label: "Star",
    details: [
      { type: "single", question: "Is it bright?", answers: [{ label: "Bright" }, { label: "Faint" }] },
      { type: "text", instruction: "Its name" },
    ],
  },
  { type: "rectangle", label: "Box" },
  { type: "circle", label: "Crater" },
  { type: "ellipse", label: "Galaxy" },
  { type: "line", label: "Jet" },
  { type: "polygon", label: "Region" },
  { type: "polyline", label: "Path" },
  { type: "freehandLine", label: "Outline" },
  { type: "transcriptionLine", label: "Text line" },
  { type: "column", label: "Column" },
];

/**
 * Draws one mark with every tool (moving the box with the mouse and then the keyboard, reshaping the
 * crater by its handle, deleting an extra circle with the Delete key, answering the star's subtasks);
 * returns the annotation value expected, in drawing order.
 */
async function drawEverything(page: Page, name: string) {
  await expect(page.getByTestId("drawing-layer")).toBeVisible();
  // A star with its two subtasks, asked in a dialog as soon as it is placed.
  await useTool(page, "Star");
  await click(page, 50, 50);
  const dialog = page.getByRole("dialog", { name: "About Star 1" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "OK" })).toBeDisabled(); // the question needs an answer
  await dialog.getByLabel("Faint").check();
  await dialog.getByLabel("Its name").fill(name);
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog).toBeHidden();

  // A box, dragged by its middle 10 right and 10 down, then 3 more right with the keyboard.
  await useTool(page, "Box");
  await drag(page, [100, 30], [160, 80]);
  await drag(page, [130, 55], [140, 65]);
  await page.getByTestId("mark-1").focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");

  // A crater of radius 20, widened to 30 by its handle, then to 32 with the keyboard.
  await useTool(page, "Crater");
  await drag(page, [250, 60], [270, 60]);
  await expect(page.getByTestId("mark-2-handle-0")).toBeVisible();
  await drag(page, [270, 60], [280, 60]);
  await page.getByRole("button", { name: "Resize handle 1 of Crater 3" }).focus();
  for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowRight");

  await useTool(page, "Galaxy");
  await drag(page, [340, 60], [370, 80]);
  await useTool(page, "Jet");
  await drag(page, [30, 150], [120, 170]);
  // A polygon closed by touching its first vertex; a polyline finished with the button.
  await useTool(page, "Region");
  for (const [x, y] of [
    [150, 120],
    [200, 120],
    [200, 170],
    [150, 120],
  ] as const)
    await click(page, x, y);
  await useTool(page, "Path");
  for (const [x, y] of [
    [230, 120],
    [280, 140],
    [320, 120],
  ] as const)
    await click(page, x, y);
  await page.getByRole("button", { name: "Finish shape" }).click();
  await useTool(page, "Outline");
  await drag(page, [30, 220], [60, 240], [90, 220]);
  await useTool(page, "Text line");
  await drag(page, [150, 260], [250, 260]);

  // An extra crater, removed with the keyboard.
  await useTool(page, "Crater");
  await drag(page, [300, 200], [310, 200]);
  const extra = page.getByRole("button", { name: /^Crater 10: circle/ });
  await extra.focus();
  await page.keyboard.press("Delete");
  await expect(extra).toHaveCount(0);

  await useTool(page, "Column");
  await drag(page, [340, 150], [380, 150]);
  await expect(page.getByRole("list", { name: "Your marks" }).getByRole("listitem")).toHaveCount(10);

  const mark = (tool: number, shape: Json, details: unknown[] = []) => ({ tool, frame: 0, details, ...shape });
  return [
    mark(0, { x: 50, y: 50 }, [{ value: 1 }, { value: name }]),
    mark(1, { x: 113, y: 40, width: 60, height: 50 }),
    mark(2, { x: 250, y: 60, r: 32, angle: 0 }),
    mark(3, { x: 340, y: 60, rx: 30, ry: 20, angle: 0 }),
    mark(4, { x1: 30, y1: 150, x2: 120, y2: 170 }),
    mark(5, {
      points: [
        { x: 150, y: 120 },
        { x: 200, y: 120 },
        { x: 200, y: 170 },
      ],
      closed: true,
    }),
    mark(6, {
      points: [
        { x: 230, y: 120 },
        { x: 280, y: 140 },
        { x: 320, y: 120 },
      ],
      closed: false,
    }),
    "freehand",
    mark(8, { x1: 150, y1: 260, x2: 250, y2: 260 }),
    mark(9, { x: 340, width: 40 }),
  ];
}

function expectDrawn(value: unknown, expected: unknown[]) {
  const marks = value as Json[];
  expect(marks).toHaveLength(expected.length);
  expected.forEach((e, i) => {
    if (e !== "freehand") {
      near(marks[i], e, 2, `mark ${i}`);
      return;
    }
    // Freehand keeps every pointer position: it starts and ends where the drag did.
    const m = marks[i] as { tool: number; frame: number; details: unknown[]; points: { x: number; y: number }[] };
    expect(Object.keys(m).sort()).toEqual(["details", "frame", "points", "tool"]);
    expect(m).toMatchObject({ tool: 7, frame: 0, details: [] });
    expect(m.points.length).toBeGreaterThanOrEqual(3);
    near(m.points[0], { x: 30, y: 220 });
    near(m.points[m.points.length - 1], { x: 90, y: 220 });
  });
}

test("volunteers draw with every tool, move, reshape and delete marks, and answer subtasks", async ({ page, request }) => {
  test.setTimeout(120_000);
  const host = uniqueName("draw").toLowerCase();
  const { project, classifications } = await setUp(
    page,
    request,
    { T0: { type: "drawing", instruction: "Mark everything", tools: TOOLS } },
    [{ locations: [{ "image/svg+xml": `${media(host)}/a.svg` }] }, { locations: [{ "image/svg+xml": `${media(host)}/b.svg` }] }],
  );
  await serveMedia(page, host);
  const done = page.getByRole("button", { name: "Done" });

  // Anonymous: every tool on the first subject, one point on the second.
  const anonymous: unknown[][] = [];
  const order: string[] = [];
  await page.goto(`/projects/${project.id}/classify`);
  for (const round of [0, 1]) {
    const image = page.getByRole("img", { name: /^Subject \d+, image 1 of 1$/ });
    await expect(image).toBeVisible();
    if (round === 1) await expect(image).not.toHaveAttribute("alt", new RegExp(`Subject ${order[0]},`));
    order.push((await image.getAttribute("alt"))!.match(/Subject (\d+)/)![1]);
    if (round === 0) anonymous.push(await drawEverything(page, "Anon"));
    else {
      await useTool(page, "Box");
      await drag(page, [10, 10], [30, 40]);
      anonymous.push([{ tool: 1, frame: 0, details: [], x: 10, y: 10, width: 20, height: 30 }]);
    }
    await done.click();
    await expect(page.getByTestId("saved-count")).toHaveText(`Classification saved. ${round + 1} classified in this session.`);
  }

  // Signed in: the same on both subjects.
  const volunteer = newUser("ui_draw");
  const volunteerId = await registerUser(request, volunteer);
  await signIn(page, volunteer.login, volunteer.password);
  await page.goto(`/projects/${project.id}/classify`);
  const image = page.getByRole("img", { name: /^Subject \d+, image 1 of 1$/ });
  await expect(image).toBeVisible();
  const signedSubject = (await image.getAttribute("alt"))!.match(/Subject (\d+)/)![1];
  const signed = await drawEverything(page, "Signed");
  await done.click();
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 1 classified in this session.");
  await expect(image).not.toHaveAttribute("alt", new RegExp(`Subject ${signedSubject},`));
  await useTool(page, "Galaxy");
  await drag(page, [200, 150], [240, 130]);
  await done.click();
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 2 classified in this session.");

  const all = await classifications();
  expect(all).toHaveLength(4);
  const [a0, a1, s0, s1] = all;
  expect(a0.links.user ?? null).toBeNull();
  expect(a0.links.subjects).toEqual([order[0]]);
  expect(a1.links.subjects).toEqual([order[1]]);
  expect(a0.annotations.map((x) => x.task)).toEqual(["T0"]);
  expectDrawn(a0.annotations[0].value, anonymous[0]);
  expectDrawn(a1.annotations[0].value, anonymous[1]);
  expect(s0.links.user).toBe(volunteerId);
  expect(s0.links.subjects).toEqual([signedSubject]);
  expectDrawn(s0.annotations[0].value, signed);
  expect(s1.links.user).toBe(volunteerId);
  expectDrawn(s1.annotations[0].value, [{ tool: 3, frame: 0, details: [], x: 200, y: 150, rx: 40, ry: 20, angle: 0 }]);
});

test("a multi-frame subject: flipbook, and marks on two frames", async ({ page, request }) => {
  const host = uniqueName("frames").toLowerCase();
  const { project, classifications } = await setUp(
    page,
    request,
    { T0: { type: "drawing", instruction: "Mark it", tools: [{ type: "point", label: "Spot" }] } },
    [
      {
        locations: [
          { "image/svg+xml": `${media(host)}/f1.svg` },
          { "image/svg+xml": `${media(host)}/f2.svg` },
          { "image/svg+xml": `${media(host)}/f3.svg` },
        ],
      },
    ],
  );
  await serveMedia(page, host);
  await page.goto(`/projects/${project.id}/classify`);
  await expect(page.getByRole("img", { name: /image 1 of 3$/ })).toBeVisible();

  // The flipbook plays through the frames at the chosen speed, and stops on Pause.
  await page.getByLabel("Speed").selectOption("4");
  await page.getByRole("button", { name: "Play" }).click();
  await expect(page.getByRole("img", { name: /image 2 of 3$/ })).toBeVisible();
  await expect(page.getByRole("img", { name: /image 3 of 3$/ })).toBeVisible();
  await page.getByRole("button", { name: "Pause" }).click();
  await page.getByRole("button", { name: "Image 1" }).click();
  await expect(page.getByRole("img", { name: /image 1 of 3$/ })).toBeVisible();

  await click(page, 100, 100);
  await page.getByRole("button", { name: "Image 2" }).click();
  await expect(page.getByRole("img", { name: /image 2 of 3$/ })).toBeVisible();
  await expect(page.getByTestId("mark-0")).toHaveCount(0); // the first frame's mark is not shown on the second
  await click(page, 300, 200);
  await expect(page.getByTestId("mark-1")).toBeVisible();
  await expect(page.getByRole("list", { name: "Your marks" })).toContainText("Spot at 100, 100 on image 1");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 1 classified in this session.");

  const [c] = await classifications();
  near(c.annotations, [
    {
      task: "T0",
      value: [
        { tool: 0, frame: 0, details: [], x: 100, y: 100 },
        { tool: 0, frame: 1, details: [], x: 300, y: 200 },
      ],
    },
  ]);
});

test("zoomed, rotated and panned, a mark still lands on the image pixel under the pointer", async ({ page, request }) => {
  const host = uniqueName("zoom").toLowerCase();
  const { project, classifications } = await setUp(
    page,
    request,
    {
      T0: {
        type: "drawing",
        instruction: "Mark it",
        tools: [
          { type: "point", label: "Spot" },
          { type: "rectangle", label: "Box" },
        ],
      },
    },
    [{ locations: [{ "image/svg+xml": `${media(host)}/z.svg` }] }],
  );
  await serveMedia(page, host);
  await page.goto(`/projects/${project.id}/classify`);
  await expect(page.getByTestId("drawing-layer")).toBeVisible();
  const box = (await page.getByTestId("drawing-layer").boundingBox())!;
  const scale = box.width / W;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };

  await page.getByRole("button", { name: "Invert colours" }).click();
  await expect(page.getByRole("button", { name: "Invert colours" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Zoom in" }).click(); // 150%
  await page.getByRole("button", { name: "Zoom in" }).click(); // 200%
  await page.getByRole("button", { name: "Rotate" }).click(); // 90° clockwise
  await expect(page.getByTestId("view-state")).toHaveText("Zoom 200%, rotated 90°, colours inverted");
  // Pan 50 px right with the keyboard, in "Move image" mode.
  await page.getByRole("button", { name: "Move image" }).click();
  await page.getByTestId("subject-viewport").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  // And 20 px right, 10 down by dragging the image.
  const from = { x: centre.x - 100, y: centre.y - 20 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 20, from.y + 10, { steps: 4 });
  await page.mouse.up();
  await page.getByRole("button", { name: "Move image" }).click();
  await page.waitForTimeout(200); // the transform's short transition

  // Image pixel (x, y) is now at centre + pan + zoom × rotate90(x − 200, y − 150); rotating (dx, dy) by 90°
  // clockwise on screen gives (−dy, dx).
  const screen = (x: number, y: number) => ({ x: centre.x + 70 + 2 * scale * -(y - H / 2), y: centre.y + 10 + 2 * scale * (x - W / 2) });
  const p = screen(250, 120);
  await page.mouse.click(p.x, p.y);
  await page.getByRole("radio", { name: /^Box/ }).check();
  const [a, b] = [screen(180, 130), screen(220, 160)];
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByRole("list", { name: "Your marks" })).toContainText(/Spot at 25\d, 1[12]\d/);

  // Reset brings the image back: a click at the untransformed position of (100, 200) marks (100, 200).
  await page.getByRole("button", { name: "Reset view" }).click();
  await expect(page.getByTestId("view-state")).toHaveText("Zoom 100%, rotated 0°");
  await page.waitForTimeout(200);
  await page.getByRole("radio", { name: /^Spot/ }).check();
  await click(page, 100, 200);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 1 classified in this session.");

  const [c] = await classifications();
  near(c.annotations[0].value, [
    { tool: 0, frame: 0, details: [], x: 250, y: 120 },
    { tool: 1, frame: 0, details: [], x: 180, y: 130, width: 40, height: 30 },
    { tool: 0, frame: 0, details: [], x: 100, y: 200 },
  ]);
});

test("text subjects: highlighter, slider and shortcut tasks, and the metadata panel", async ({ page, request }) => {
  const host = uniqueName("text").toLowerCase();
  const tasks = {
    T0: { type: "single", question: "Is there text?", answers: [{ label: "Yes", next: "T1" }, { label: "No" }], unlinkedTask: "T3" },
    T1: {
      type: "highlighter",
      instruction: "Highlight people and places",
      highlighterLabels: [
        { label: "Person", color: "#fca5a5" },
        { label: "Place", color: "#93c5fd" },
      ],
      next: "T2",
    },
    T2: { type: "slider", instruction: "How legible is it?", min: 0, max: 10, step: 1, defaultValue: 5 },
    T3: { type: "shortcut", answers: [{ label: "Nothing here" }, { label: "Unreadable" }] },
  };
  const text = "Alice met Bob in Paris.";
  const metadata = {
    "#secret": "hidden from volunteers",
    "!retired_only": "also hidden",
    Source: "https://archive.example.org/letters/1",
    Year: "1890",
  };
  const { project, classifications } = await setUp(page, request, tasks, [
    { locations: [{ "text/plain": `${media(host)}/one.txt` }], metadata },
    { locations: [{ "text/plain": `${media(host)}/two.txt` }], metadata },
  ]);
  await serveMedia(page, host, { "one.txt": text, "two.txt": text });
  await page.goto(`/projects/${project.id}/classify`);
  await expect(page.getByTestId("subject-text")).toHaveText(text);

  // Metadata: hidden keys stay hidden, addresses are links.
  await page.getByText("Subject metadata", { exact: true }).click();
  const panel = page.getByRole("definition").filter({ hasText: "archive" });
  await expect(panel.getByRole("link", { name: "https://archive.example.org/letters/1" })).toHaveAttribute(
    "href",
    "https://archive.example.org/letters/1",
  );
  await expect(page.getByText("1890")).toBeVisible();
  await expect(page.getByText("#secret")).toHaveCount(0);
  await expect(page.getByText("!retired_only")).toHaveCount(0);

  // First subject: Yes, two highlights, then the slider moved to 8 with the keyboard.
  await page.getByLabel("Yes").check();
  await page.getByRole("button", { name: "Next" }).click();
  const select = (word: string) =>
    page.getByTestId("highlighter-text").evaluate((root, w) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = n.textContent!.indexOf(w);
        if (i < 0) continue;
        const range = document.createRange();
        range.setStart(n, i);
        range.setEnd(n, i + w.length);
        window.getSelection()!.removeAllRanges();
        window.getSelection()!.addRange(range);
        return;
      }
      throw new Error(`no ${w}`);
    }, word);
  await expect(page.getByTestId("highlighter-text")).toHaveText(text);
  await select("Alice");
  await page.getByRole("button", { name: "Highlight as Person" }).click();
  await select("Paris");
  await page.getByRole("button", { name: "Highlight as Place" }).click();
  await expect(page.getByRole("list", { name: "Highlights" }).getByRole("listitem")).toHaveText([/Person: “Alice”/, /Place: “Paris”/]);
  await page.getByRole("button", { name: "Next" }).click();
  const slider = page.getByLabel("How legible is it?");
  await expect(slider).toHaveValue("5");
  await slider.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(slider).toHaveValue("8");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 1 classified in this session.");

  // Second subject: the "Nothing here" shortcut finishes at once.
  await expect(page.getByRole("button", { name: "Done" })).toBeDisabled();
  await page.getByLabel("Nothing here").check();
  await expect(page.getByRole("button", { name: "Done" })).toBeEnabled();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 2 classified in this session.");

  const [first, second] = await classifications();
  expect(first.annotations).toEqual([
    { task: "T0", value: 0 },
    {
      task: "T1",
      value: [
        { start: 0, end: 5, text: "Alice", labelInformation: { label: "Person", color: "#fca5a5" } },
        { start: 17, end: 22, text: "Paris", labelInformation: { label: "Place", color: "#93c5fd" } },
      ],
    },
    { task: "T2", value: 8 },
  ]);
  expect(second.annotations).toEqual([
    { task: "T0", value: null },
    { task: "T3", value: [0] },
  ]);
});

test("with the keyboard alone: a polygon, a line and its subtask, a mark moved and reshaped, its subtask reopened", async ({
  page,
  request,
}) => {
  const host = uniqueName("keys").toLowerCase();
  const tools = [
    { type: "polygon", label: "Region" },
    { type: "line", label: "Jet", details: [{ type: "text", instruction: "Note" }] },
  ];
  const { project, classifications } = await setUp(page, request, { T0: { type: "drawing", instruction: "Mark it", tools } }, [
    { locations: [{ "image/svg+xml": `${media(host)}/k.svg` }] },
  ]);
  await serveMedia(page, host);
  await page.goto(`/projects/${project.id}/classify`);
  const layer = page.getByTestId("drawing-layer");
  await expect(layer).toBeVisible();
  const keys = async (...ks: string[]) => {
    for (const k of ks) await page.keyboard.press(k);
  };
  const times = (k: string, n: number) => Array<string>(n).fill(k);

  // The crosshair starts at the centre (200, 150) and moves 10 px a press.
  await layer.focus();
  await keys("Enter", ...times("ArrowRight", 5), "Enter", ...times("ArrowDown", 5), "Enter");
  await keys("Tab"); // to "Finish shape"
  await expect(page.getByRole("button", { name: "Finish shape" })).toBeFocused();
  await keys("Enter");
  await page.getByRole("radio", { name: /^Jet/ }).check();
  await layer.focus();
  await keys("Enter", ...times("ArrowLeft", 10), "Enter");
  const dialog = page.getByRole("dialog", { name: "About Jet 2" });
  await expect(dialog.getByLabel("Note")).toBeFocused();
  await page.keyboard.type("faint jet");
  await keys("Tab", "Tab", "Enter"); // past "Delete this mark" to OK
  await expect(dialog).toBeHidden();
  await expect(layer).toBeFocused();
  // Tab to the polygon, two up; Tab to its first vertex's handle, one left; past its other handles to
  // the line, where Enter reopens the subtask.
  await keys("Tab");
  await expect(page.getByTestId("mark-0")).toBeFocused();
  await keys("ArrowUp", "ArrowUp", "Tab");
  await expect(page.getByRole("button", { name: "Resize handle 1 of Region 1" })).toBeFocused();
  await keys("ArrowLeft", "Tab", "Tab", "Tab");
  await expect(page.getByTestId("mark-1")).toBeFocused();
  await keys("Enter");
  await expect(dialog.getByLabel("Note")).toHaveValue("faint jet");
  await keys("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 1 classified in this session.");

  const [c] = await classifications();
  near(
    c.annotations[0].value,
    [
      {
        tool: 0,
        frame: 0,
        details: [],
        points: [
          { x: 199, y: 148 },
          { x: 250, y: 148 },
          { x: 250, y: 198 },
        ],
        closed: true,
      },
      { tool: 1, frame: 0, details: [{ value: "faint jet" }], x1: 250, y1: 200, x2: 150, y2: 200 },
    ],
    0,
  );
});

test("audio and video subjects play with their native controls", async ({ page, request }) => {
  const host = uniqueName("av").toLowerCase();
  const { project, classifications } = await setUp(
    page,
    request,
    { T0: { type: "single", question: "Heard or seen a bird?", answers: [{ label: "Bird" }, { label: "No bird" }] } },
    [{ locations: [{ "audio/mpeg": `${media(host)}/song.mp3` }] }, { locations: [{ "video/mp4": `${media(host)}/clip.mp4` }] }],
  );
  await page.route(`${media(host)}/**`, (route) => route.fulfill({ status: 404, body: "" }));
  await page.goto(`/projects/${project.id}/classify`);
  const seen: string[] = [];
  for (const n of [1, 2]) {
    const player = page.locator("audio[controls], video[controls]");
    await expect(player).toHaveCount(1);
    seen.push(await player.evaluate((el) => el.tagName.toLowerCase()));
    await expect(page.getByRole("toolbar", { name: "Image tools" })).toHaveCount(0); // no image to zoom
    await page.getByLabel("Bird", { exact: true }).check();
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("saved-count")).toHaveText(`Classification saved. ${n} classified in this session.`);
  }
  expect(seen.sort()).toEqual(["audio", "video"]);
  expect((await classifications()).map((c) => c.annotations)).toEqual([[{ task: "T0", value: 0 }], [{ task: "T0", value: 0 }]]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

  test("the viewer fits 375 px and a tap places a mark", async ({ page, request }) => {
    const host = uniqueName("phone").toLowerCase();
    const { project, classifications } = await setUp(
      page,
      request,
      {
        T0: {
          type: "drawing",
          instruction: "Mark it",
          tools: [
            { type: "point", label: "Spot" },
            { type: "rectangle", label: "Box" },
          ],
        },
      },
      [{ locations: [{ "image/svg+xml": `${media(host)}/p.svg` }] }],
    );
    await serveMedia(page, host);
    await page.goto(`/projects/${project.id}/classify`);
    await expect(page.getByTestId("drawing-layer")).toBeVisible();
    const figure = (await page.locator("figure").boundingBox())!;
    expect(figure.x).toBeGreaterThanOrEqual(0);
    expect(figure.x + figure.width).toBeLessThanOrEqual(375);
    for (const name of ["Zoom in", "Zoom out", "Rotate", "Invert colours", "Move image", "Reset view"]) {
      const b = (await page.getByRole("button", { name }).boundingBox())!;
      expect(b.x + b.width, name).toBeLessThanOrEqual(375);
    }
    // The image, the first tool and Done in the first screen together, without scrolling.
    const firstScreen = [
      page.getByRole("img", { name: /^Subject / }),
      page.getByRole("radio", { name: /^Spot/ }),
      page.getByRole("button", { name: "Done" }),
    ];
    for (const target of firstScreen) {
      const b = (await target.boundingBox())!;
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.y + b.height).toBeLessThanOrEqual(740);
    }
    const p = await at(page, 200, 100);
    await page.touchscreen.tap(p.x, p.y);
    await expect(page.getByRole("list", { name: "Your marks" })).toContainText(/Spot at (19\d|20\d), (9\d|10\d)/);
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 1 classified in this session.");
    const [c] = await classifications();
    near(c.annotations[0].value, [{ tool: 0, frame: 0, details: [], x: 200, y: 100 }], 4);
  });
});
