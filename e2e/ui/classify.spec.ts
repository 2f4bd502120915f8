// The volunteer classifier: a signed-in volunteer goes from the project page to its workflow, answers a
// branching question, a combo step with text and drawing (mouse and keyboard), and moves on to the next
// subject; the classifications the researchers then read carry exactly those answers.
import { expect, test } from "@playwright/test";
import { accessToken, API_ACCEPT, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

const picture = (label: string) =>
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#334"/>' +
  `<text x="20" y="160" font-size="36" fill="white">${label}</text></svg>`;

test("a volunteer classifies: branching, a combo of text and drawing, then the next subject", async ({ page, request }) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Classify") });
  const tasks = {
    T0: { type: "single", question: "Is there an animal?", answers: [{ label: "Yes", next: "T1" }, { label: "No" }] },
    T1: { type: "combo", tasks: ["T2", "T3"] },
    T2: { type: "text", instruction: "What animal is it?", required: true },
    T3: {
      type: "drawing",
      instruction: "Mark its eyes and body",
      tools: [
        { type: "point", label: "Eye" },
        { type: "rectangle", label: "Body" },
      ],
    },
  };
  const wf = await request.post("/api/workflows", {
    headers,
    data: { workflows: { display_name: "Find animals", tasks, first_task: "T0", links: { project: project.id } } },
  });
  expect(wf.status(), await wf.text()).toBe(201);
  const workflow = (await wf.json()).workflows[0];
  const media = `https://media.example.org/${uniqueName("m")}`;
  const subjectIds: string[] = [];
  for (const n of [1, 2]) {
    const s = await request.post("/api/subjects", {
      headers,
      data: { subjects: { locations: [{ "image/svg+xml": `${media}/${n}.svg` }], links: { project: project.id } } },
    });
    expect(s.status(), await s.text()).toBe(201);
    subjectIds.push((await s.json()).subjects[0].id);
  }
  const set = await request.post("/api/subject_sets", {
    headers,
    data: {
      subject_sets: { display_name: uniqueName("set"), links: { project: project.id, workflows: [workflow.id], subjects: subjectIds } },
    },
  });
  expect(set.status(), await set.text()).toBe(201);
  // The subjects' images live elsewhere; the browser gets them from here.
  await page.route(`${media}/**`, (route) =>
    route.fulfill({ contentType: "image/svg+xml", body: picture(route.request().url().split("/").pop()!) }),
  );

  const volunteer = newUser("ui_cls");
  const volunteerId = await registerUser(request, volunteer);
  await signIn(page, volunteer.login, volunteer.password);
  await page.goto(`/projects/${project.id}`);
  await page.getByRole("link", { name: "Classify: Find animals" }).click();

  // First subject: Yes branches to the combo step.
  const image = page.getByRole("img", { name: /^Subject \d+, image 1 of 1$/ });
  await expect(image).toBeVisible();
  const first = (await image.getAttribute("alt"))!.match(/Subject (\d+)/)![1];
  const submit = page.getByRole("button", { name: /^(Next|Done)$/ });
  await expect(submit).toBeDisabled();
  await page.getByLabel("Yes").check();
  await expect(page.getByRole("button", { name: "Next" })).toBeEnabled();
  await page.keyboard.press("Enter");
  const text = page.getByLabel("What animal is it? (required)");
  await expect(text).toBeVisible();
  await expect(page.getByRole("button", { name: "Done" })).toBeDisabled(); // the text is required
  await text.fill("A fox");

  // An eye with the mouse, a quarter of the way across and halfway down (100, 150 in the image's pixels).
  const layer = page.getByTestId("drawing-layer");
  const box = (await layer.boundingBox())!;
  await page.mouse.click(box.x + box.width / 4, box.y + box.height / 2);
  // The body with the keyboard: a corner at the centre, the other 20 right and 10 down.
  await page.getByLabel(/^Body/).check();
  await layer.focus();
  for (const key of ["Enter", "ArrowRight", "ArrowRight", "ArrowDown", "Enter"]) await page.keyboard.press(key);
  const marks = page.getByRole("list", { name: "Your marks" }).getByRole("listitem");
  await expect(marks).toHaveCount(2);
  await expect(marks.nth(1)).toContainText("Body at 200, 150 (20 × 10)");
  await marks.nth(0).getByRole("button", { name: "Remove mark 1" }).click();
  await expect(marks).toHaveCount(1);
  await page.getByLabel(/^Eye/).check();
  const now = (await layer.boundingBox())!; // focusing the layer may have scrolled it into view
  await page.mouse.click(now.x + now.width / 4, now.y + now.height / 2);
  await page.getByRole("button", { name: "Done" }).click();

  // The next subject, answered No: Done at once.
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 1 classified in this session.");
  await expect(image).not.toHaveAttribute("alt", new RegExp(`Subject ${first},`));
  const second = (await image.getAttribute("alt"))!.match(/Subject (\d+)/)![1];
  await page.getByLabel("No").check();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 2 classified in this session.");
  await expect(page.getByText("There is nothing left to classify in this workflow. Thank you!")).toBeVisible();

  // What the research team reads.
  const listed = await request.get(`/api/classifications/project?project_id=${project.id}`, { headers });
  expect(listed.status()).toBe(200);
  const classifications = (await listed.json()).classifications.sort((a: { id: string }, b: { id: string }) => Number(a.id) - Number(b.id));
  expect(classifications.map((c: { links: { subjects: string[] } }) => c.links.subjects)).toEqual([[first], [second]]);
  const [fox, empty] = classifications;
  expect(fox.annotations.slice(0, 2)).toEqual([
    { task: "T0", value: 0 },
    { task: "T2", value: "A fox" },
  ]);
  const drawn = fox.annotations[2];
  expect(drawn.task).toBe("T3");
  expect(drawn.value).toHaveLength(2);
  expect(drawn.value[0]).toEqual({ tool: 1, x: 200, y: 150, width: 20, height: 10, frame: 0, details: [] });
  expect(drawn.value[1]).toMatchObject({ tool: 0, frame: 0, details: [] });
  expect(drawn.value[1].x).toBeCloseTo(100, -1);
  expect(drawn.value[1].y).toBeCloseTo(150, -1);
  expect(fox.metadata).toMatchObject({
    workflow_version: workflow.version,
    user_language: expect.any(String),
    subject_dimensions: [{ naturalWidth: 400, naturalHeight: 300 }],
  });
  expect(empty.annotations).toEqual([{ task: "T0", value: 1 }]);
  expect(fox.links.user).toBe(volunteerId);
});

test("a volunteer identifies animals in a survey task: filters, search, questions, removal", async ({ page, request }) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Survey") });
  const survey = {
    type: "survey",
    instruction: "Which animals are there?",
    choices: {
      ZEBRA: { label: "Zebra", characteristics: { pattern: ["stripes"] } },
      LION: { label: "Lion", characteristics: { pattern: ["solid"] } },
      NOTHING: { label: "Nothing here", noQuestions: true },
    },
    choicesOrder: ["LION", "ZEBRA", "NOTHING"],
    characteristics: { pattern: { label: "Pattern", values: { stripes: { label: "Stripes" }, solid: { label: "Solid" } } } },
    characteristicsOrder: ["pattern"],
    questions: {
      HOWMANY: { label: "How many?", required: true, answers: { "1": { label: "1" }, "2": { label: "2" } }, answersOrder: ["1", "2"] },
      DOING: { label: "What are they doing?", multiple: true, answers: { EAT: { label: "Eating" }, REST: { label: "Resting" } } },
    },
    questionsOrder: ["HOWMANY", "DOING"],
  };
  const wf = await request.post("/api/workflows", {
    headers,
    data: { workflows: { display_name: "Survey", tasks: { T0: survey }, first_task: "T0", links: { project: project.id } } },
  });
  expect(wf.status(), await wf.text()).toBe(201);
  const workflow = (await wf.json()).workflows[0];
  const s = await request.post("/api/subjects", {
    headers,
    data: { subjects: { locations: [{ "image/svg+xml": "https://media.example.org/survey/1.svg" }], links: { project: project.id } } },
  });
  const subjectId = (await s.json()).subjects[0].id;
  await request.post("/api/subject_sets", {
    headers,
    data: {
      subject_sets: { display_name: uniqueName("set"), links: { project: project.id, workflows: [workflow.id], subjects: [subjectId] } },
    },
  });
  await page.route("https://media.example.org/survey/**", (route) =>
    route.fulfill({ contentType: "image/svg+xml", body: picture("survey") }),
  );

  await page.goto(`/projects/${project.id}/classify`); // anonymous volunteers classify too
  const choices = page.getByRole("group", { name: "Choices" }).getByRole("button");
  await expect(choices).toHaveText(["Lion", "Zebra", "Nothing here"]);
  await page.getByLabel("Pattern").selectOption("stripes");
  await expect(choices).toHaveText(["Zebra"]);
  await choices.first().click();
  const identify = page.getByRole("button", { name: "Identify" });
  await expect(identify).toBeDisabled(); // How many? is required
  await page.getByRole("group", { name: "Identify Zebra" }).getByLabel("2").check();
  await page.getByLabel("Eating").check();
  await identify.click();
  await page.getByLabel("Pattern").selectOption("");
  await page.getByLabel("Search").fill("li");
  await expect(choices).toHaveText(["Lion"]);
  await choices.first().click();
  await page.getByRole("group", { name: "Identify Lion" }).getByLabel("1").check();
  await identify.click();
  const identified = page.getByRole("list", { name: "Identified" }).getByRole("listitem");
  await expect(identified).toHaveText([/Zebra \(2; EAT\)/, /Lion \(1\)/]);
  await page.getByRole("button", { name: "Remove Lion" }).click();
  await expect(identified).toHaveCount(1);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 1 classified in this session.");

  const listed = await request.get(`/api/classifications/project?project_id=${project.id}`, { headers });
  const [c] = (await listed.json()).classifications;
  expect(c.annotations).toEqual([
    { task: "T0", value: [{ choice: "ZEBRA", answers: { HOWMANY: "2", DOING: ["EAT"] }, filters: { pattern: "stripes" } }] },
  ]);
});

test("the classifier of a private project is not found by visitors without a role", async ({ page, request }) => {
  const token = await accessToken(request);
  const project = await createProject(request, token, { display_name: uniqueName("Hidden"), private: true });
  const res = await page.goto(`/projects/${project.id}/classify`);
  expect(res?.status()).toBe(404);
});

test("the subject takes the room, the tools beside it; the keyboard answers, presses Done and lists its shortcuts", async ({
  page,
  request,
}) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Keys") });
  const tasks = { T0: { type: "single", question: "Which animal?", answers: [{ label: "Cat" }, { label: "Dog" }, { label: "Neither" }] } };
  const wf = await request.post("/api/workflows", {
    headers,
    data: { workflows: { display_name: "Animals", tasks, first_task: "T0", links: { project: project.id } } },
  });
  const workflow = (await wf.json()).workflows[0];
  const media = `https://media.example.org/${uniqueName("k")}`;
  const subjectIds: string[] = [];
  for (const n of [1, 2, 3]) {
    const s = await request.post("/api/subjects", {
      headers,
      data: { subjects: { locations: [{ "image/svg+xml": `${media}/${n}.svg` }], links: { project: project.id } } },
    });
    subjectIds.push((await s.json()).subjects[0].id);
  }
  await request.post("/api/subject_sets", {
    headers,
    data: {
      subject_sets: { display_name: uniqueName("set"), links: { project: project.id, workflows: [workflow.id], subjects: subjectIds } },
    },
  });
  await page.route(`${media}/**`, (route) =>
    route.fulfill({ contentType: "image/svg+xml", body: picture(route.request().url().split("/").pop()!) }),
  );

  // Laptop screens: the (landscape) image is at least 60 % of the width and all in the first screen, its
  // tools a column beside it. No tabs: the workflow has no tutorial.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/projects/${project.id}/classify`);
  const image = page.getByRole("img", { name: /^Subject \d+, image 1 of 1$/ });
  await expect(image).toBeVisible();
  await expect.poll(async () => (await image.boundingBox())!.width).toBeGreaterThanOrEqual(0.6 * 1280);
  expect((await image.boundingBox())!.y + (await image.boundingBox())!.height).toBeLessThanOrEqual(720);
  await expect(page.getByRole("tablist")).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(async () => (await image.boundingBox())!.width).toBeGreaterThanOrEqual(0.6 * 1280);
  const img = (await image.boundingBox())!;
  const tools = (await page.getByRole("toolbar", { name: "Image tools" }).boundingBox())!;
  expect(tools.x).toBeGreaterThanOrEqual(img.x + img.width);
  expect(tools.y).toBeLessThan(img.y + img.height);
  expect(tools.height).toBeGreaterThan(tools.width); // a column

  // The first load leaves the focus alone; 2 then Enter answers Dog and presses Done.
  const first = page.getByRole("radio", { name: "Cat" });
  await expect(first).not.toBeFocused();
  const shown = (await image.getAttribute("alt"))!.match(/Subject (\d+)/)![1];
  await page.keyboard.press("2");
  await expect(page.getByRole("radio", { name: "Dog" })).toBeChecked();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 1 classified in this session.");
  // The next subject's first answer has the focus.
  await expect(image).not.toHaveAttribute("alt", new RegExp(`Subject ${shown},`));
  await expect(first).toBeFocused();

  // "?" lists the shortcuts in a dialog; Escape closes it and the focus goes back.
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("1"); // inert while the dialog is open
  await expect(first).not.toBeChecked();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(first).toBeFocused();
  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");

  const listed = await request.get(`/api/classifications/project?project_id=${project.id}`, { headers });
  const [c] = (await listed.json()).classifications;
  expect(c.links.subjects).toEqual([shown]);
  expect(c.annotations).toEqual([{ task: "T0", value: 1 }]);

  // A phone: the image, the first answer and Done in the first screen, without scrolling.
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto(`/projects/${project.id}/classify`);
  await expect(image).toBeVisible();
  await page.waitForTimeout(100); // the image is scaled once its size is known
  for (const target of [image, first, page.getByRole("button", { name: "Done" })]) {
    const box = (await target.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(667);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  }
});
