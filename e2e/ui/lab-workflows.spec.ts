// Workflows built entirely in the lab: a drawing workflow (a rectangle tool with a subtask and a point
// tool) and a survey workflow (a characteristic with values, choices with images and a confusion, a
// question about each identification), each saved as the API's task definitions the classifier reads;
// the editor shows the branching graph and a live preview, and copies a workflow. Screenshots at 1280 px.
import { expect, test } from "@playwright/test";
import { addOnCanvas, dragHandle, expectInside } from "../flow-canvas";
import {
  accessToken,
  API_ACCEPT,
  classifiableWorkflow,
  createProject,
  createProjectInLab,
  newUser,
  registerUser,
  signIn,
  uniqueName,
} from "../support";

test("an owner builds a drawing workflow and a survey workflow in the lab", async ({ page, request }) => {
  test.setTimeout(120_000);
  const owner = newUser("lab_wf");
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, owner.login, owner.password);
  const projectId = await createProjectInLab(page, uniqueName("Owls"));

  // A drawing workflow.
  await page.getByLabel("Workflow name").fill("Mark owls");
  await page.getByLabel("Task 1 type").selectOption("drawing");
  await page.getByLabel("Task 1 instruction").fill("Draw a box around each owl");
  await page.getByLabel("Task 1 tool 1 type").selectOption("rectangle");
  await page.getByLabel("Task 1 tool 1 label").fill("Owl");
  await page.getByRole("button", { name: "Add a subtask to Task 1 tool 1" }).click();
  await page.getByLabel("Task 1 tool 1 subtask 1 question").fill("Is it awake?");
  await page.getByLabel("Task 1 tool 1 subtask 1 answer 1", { exact: true }).fill("Yes");
  await page.getByLabel("Task 1 tool 1 subtask 1 answer 2", { exact: true }).fill("No");
  await page.getByRole("button", { name: "Add a tool to Task 1" }).click();
  await page.getByLabel("Task 1 tool 2 label").fill("Eye");
  await expect(page.getByTestId("workflow-preview").getByRole("radio", { name: /^Owl/ })).toBeVisible();
  await page.getByRole("button", { name: "Create workflow" }).click();
  // Created: its editor opens with a "Created" message and the task just built, not a blank form.
  await expect(page.getByRole("heading", { name: "Mark owls" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Created “Mark owls”" })).toBeVisible();
  await expect(page.getByLabel("Task 1 tool 1 subtask 1 question")).toHaveValue("Is it awake?");
  await page.goto(`/lab/projects/${projectId}`);

  // A survey workflow.
  await page.getByLabel("Workflow name").fill("Identify owls");
  await page.getByLabel("Task 1 type").selectOption("survey");
  await page.getByLabel("Task 1 instruction").fill("Which owl is it?");
  await page.getByLabel("New characteristic").fill("Colour");
  await page.getByRole("button", { name: "Add characteristic" }).click();
  for (const v of ["White", "Brown"]) {
    await page.getByLabel("New COLOUR value").fill(v);
    await page.getByRole("button", { name: "Add the new COLOUR value" }).click();
  }
  for (const c of ["Barn owl", "Tawny owl"]) {
    await page.getByLabel("New choice").fill(c);
    await page.getByRole("button", { name: "Add choice" }).click();
  }
  await page.getByRole("checkbox", { name: "White for choice BARNOWL" }).check();
  await page.getByRole("checkbox", { name: "Brown for choice TAWNYOWL" }).check();
  await page.getByLabel("Choice BARNOWL description").fill("Pale, heart-shaped face");
  await page.getByLabel("Choice BARNOWL images (one URL a line)").fill("https://example.org/owls/barn-1.jpg");
  await page.getByLabel("Choice BARNOWL told apart from Tawny owl by").fill("A white face, not a brown one");
  await page.getByLabel("New question").fill("How many?");
  await page.getByRole("button", { name: "Add question" }).click();
  for (const a of ["1", "2 or more"]) {
    await page.getByLabel("New HOWMANY answer").fill(a);
    await page.getByRole("button", { name: "Add the new HOWMANY answer" }).click();
  }
  // The preview is the classifier's own survey: the choice shows its description, picture and confusion.
  await page
    .getByTestId("workflow-preview")
    .getByRole("button", { name: /Barn owl/ })
    .click();
  await expect(page.getByTestId("workflow-preview").getByText("Often confused with Tawny owl:")).toBeVisible();
  await expect(page.getByTestId("workflow-preview").getByText("Pale, heart-shaped face")).toBeVisible();
  await expect(page.getByTestId("workflow-preview").getByRole("img", { name: "Barn owl, example 1" })).toHaveAttribute(
    "src",
    "https://example.org/owls/barn-1.jpg",
  );
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Created “Identify owls”" })).toBeVisible();
  await page.goto(`/lab/projects/${projectId}`);

  // Saved as the task definitions the classifier and the engine read.
  const workflows = (
    await (
      await request.get(`/api/workflows?project_id=${projectId}`, { headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` } })
    ).json()
  ).workflows;
  const drawing = workflows.find((w: { display_name: string }) => w.display_name === "Mark owls");
  const survey = workflows.find((w: { display_name: string }) => w.display_name === "Identify owls");
  expect(drawing.tasks.T0).toMatchObject({
    type: "drawing",
    instruction: "Draw a box around each owl",
    tools: [
      {
        type: "rectangle",
        label: "Owl",
        details: [{ type: "single", question: "Is it awake?", answers: [{ label: "Yes" }, { label: "No" }] }],
      },
      { type: "point", label: "Eye" },
    ],
  });
  expect(survey.tasks.T0).toMatchObject({
    type: "survey",
    characteristics: {
      COLOUR: { label: "Colour", values: { WHITE: { label: "White" }, BROWN: { label: "Brown" } }, valuesOrder: ["WHITE", "BROWN"] },
    },
    choicesOrder: ["BARNOWL", "TAWNYOWL"],
    choices: {
      BARNOWL: {
        label: "Barn owl",
        description: "Pale, heart-shaped face",
        characteristics: { COLOUR: ["WHITE"] },
        images: ["barn-1.jpg"],
        confusions: { TAWNYOWL: "A white face, not a brown one" },
        confusionsOrder: ["TAWNYOWL"],
      },
      TAWNYOWL: { label: "Tawny owl", characteristics: { COLOUR: ["BROWN"] } },
    },
    images: { "barn-1.jpg": "https://example.org/owls/barn-1.jpg" },
    questions: { HOWMANY: { label: "How many?", answers: { "1": { label: "1" }, "2ORMORE": { label: "2 or more" } } } },
  });

  // Two subject sets: one real, one for training, drawn by chances the editor sets.
  const auth = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  for (const setName of ["Night shots", "Practice"]) {
    const subject = await request.post("/api/subjects", {
      headers: auth,
      data: { subjects: { locations: [{ "image/png": "https://example.org/owl.png" }], links: { project: projectId } } },
    });
    const res = await request.post("/api/subject_sets", {
      headers: auth,
      data: { subject_sets: { display_name: setName, links: { project: projectId, subjects: [(await subject.json()).subjects[0].id] } } },
    });
    expect(res.status()).toBe(201);
  }

  // The editor of an existing workflow: version, subject sets, graph, preview; a copy.
  await page.getByRole("link", { name: "Edit Identify owls" }).click();
  await page.getByRole("checkbox", { name: /^Night shots/ }).check();
  await page.getByRole("checkbox", { name: /^Practice \(/ }).check();
  await page.getByRole("checkbox", { name: "Practice is a training set" }).check();
  await page.getByLabel(/Training chances by subjects seen/).fill("1, 1, 0.5");
  await page.getByLabel("Training chance after that").fill("0.1");
  await page.getByLabel("Chance of Night shots").fill("2");
  await page.getByRole("button", { name: "Save workflow" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toContainText("Saved: version");
  const configured = (await (await request.get(`/api/workflows/${survey.id}`, { headers: auth })).json()).workflows[0];
  const sets = (await (await request.get(`/api/subject_sets?project_id=${projectId}`, { headers: auth })).json()).subject_sets;
  const practice = sets.find((x: { display_name: string }) => x.display_name === "Practice").id;
  const night = sets.find((x: { display_name: string }) => x.display_name === "Night shots").id;
  expect(configured.links.subject_sets.sort()).toEqual([night, practice].sort());
  expect(configured.configuration).toMatchObject({
    training_set_ids: [Number(practice)],
    training_chances: [1, 1, 0.5],
    training_default_chance: 0.1,
    subject_set_chances: { [night]: 2 },
  });
  await expect(page.getByText(/^Version 1\.1/)).toBeVisible();
  await expect(page.getByRole("figure").filter({ hasText: "Branching" })).toBeVisible();
  await expect(page.getByTestId("workflow-preview").getByRole("button", { name: /Tawny owl/ })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/lab-workflow-survey-1280.png", fullPage: true });
  await page.getByRole("button", { name: "Copy this workflow" }).click();
  await expect(page.getByRole("heading", { name: "Copy of Identify owls" })).toBeVisible();
  await page.goto(`/lab/projects/${projectId}/workflows/${drawing.id}`);
  await expect(page.getByLabel("Task 1 tool 1 subtask 1 question")).toHaveValue("Is it awake?");
  await page.screenshot({ path: "test-results/screenshots/lab-workflow-drawing-1280.png", fullPage: true });
});

test("an owner builds a branching workflow on the graph: a task added there, an answer dragged to it, another linked by keyboard", async ({
  page,
  request,
}) => {
  const owner = newUser("lab_graph");
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  const project = await createProject(request, token, { display_name: uniqueName("Graph") });
  const w = await classifiableWorkflow(request, token, project.id, 1);
  const auth = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, owner.login, owner.password);
  await page.goto(`/lab/projects/${project.id}/workflows/${w.workflowId}`);

  // A task added with the canvas's "+ Add" menu (its type by its human label): its form opens beside the canvas, focused.
  await expect(page.getByTestId("branching-graph")).toHaveAttribute("data-ready", "true"); // hydrated
  await addOnCanvas(page, "branching-graph", "Task: Free text");
  await expect(page.getByRole("heading", { name: "Task 2", exact: true })).toBeFocused();
  await expect(page.getByLabel("Task 2 type").locator("option:checked")).toHaveText("Free text");
  await expectInside(page, "branching-graph");
  await page.getByLabel("Task 2 instruction").fill("Describe it");
  // The panel is beside the canvas at this width: both in view at once.
  const canvasBox = (await page.getByTestId("branching-graph").boundingBox())!;
  const panelBox = (await page.getByRole("region", { name: "Task 2: Describe it" }).boundingBox())!;
  expect(panelBox.x).toBeGreaterThanOrEqual(canvasBox.x + canvasBox.width);

  // Drag: answer "Yes" of T0 onto T1.
  const node = (key: string) => page.getByTestId("branching-graph").locator(`.react-flow__node[data-id="${key}"]`);
  await dragHandle(
    page,
    node("T0").locator('.react-flow__handle[data-handleid="answer-0"]'),
    node("T1").locator(".react-flow__handle.target"),
  );
  await node("T0").click();
  await expect(page.getByLabel("Task 1 answer 1 (Yes) leads to")).toHaveValue("T1");
  await expect(page.getByLabel("Task 1 answer 1 (Yes) leads to").locator("option:checked")).toHaveText("Task 2: Describe it");
  await expect(node("T0")).toContainText(/Yes\s*→ Task 2/);
  await expectInside(page, "branching-graph");
  await page.getByRole("button", { name: "Save workflow" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toContainText("Saved: version");
  let saved = (await (await request.get(`/api/workflows/${w.workflowId}`, { headers: auth })).json()).workflows[0];
  expect(saved.tasks.T0.answers).toEqual([{ label: "Yes", next: "T1" }, { label: "No" }]);

  // The keyboard: a node opens its form with Enter (the focus moves to it; "Back to the canvas" returns);
  // the answer's "leads to" select links it.
  await node("T1").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Task 2: Describe it" })).toBeFocused();
  await page.getByRole("button", { name: "Back to the canvas" }).click();
  await expect(node("T1")).toBeFocused();
  await node("T0").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /^Task 1: / })).toBeFocused();
  await page.getByLabel("Task 1 answer 2 (No) leads to").focus();
  await page.keyboard.press("ArrowDown"); // the end → T1
  await expect(page.getByLabel("Task 1 answer 2 (No) leads to")).toHaveValue("T1");
  // The first save's "Saved" may still show: wait for this save's answer itself.
  const second = page.waitForResponse((r) => r.request().method() === "PUT" && r.url().includes(`/api/workflows/${w.workflowId}`));
  await page.getByRole("button", { name: "Save workflow" }).click();
  expect((await second).status()).toBe(200);
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toContainText("Saved: version");
  saved = (await (await request.get(`/api/workflows/${w.workflowId}`, { headers: auth })).json()).workflows[0];
  expect(saved.tasks.T0.answers).toEqual([
    { label: "Yes", next: "T1" },
    { label: "No", next: "T1" },
  ]);

  // A link removed by the mouse: clicked (selected), then its "Remove link" button, confirmed; the answer leads to the end.
  const graphFigure = page.getByRole("figure").filter({ hasText: "Branching" });
  await graphFigure.getByRole("group", { name: "Link from answer No of Task 1 to Task 2" }).click();
  await expect(graphFigure.getByText("Selected: Link from answer No of Task 1 to Task 2")).toBeVisible();
  page.once("dialog", (d) => void d.accept());
  await graphFigure.getByRole("button", { name: "Remove link" }).click();
  await expect(page.getByLabel("Task 1 answer 2 (No) leads to")).toHaveValue("");
  await expect(graphFigure.getByRole("button", { name: "Remove link" })).toHaveCount(0);
  await page.getByRole("button", { name: "Save workflow" }).click();
  await expect
    .poll(async () => (await (await request.get(`/api/workflows/${w.workflowId}`, { headers: auth })).json()).workflows[0].tasks.T0.answers)
    .toEqual([{ label: "Yes", next: "T1" }, { label: "No" }]);
  await page.screenshot({ path: "test-results/screenshots/lab-workflow-graph-1280.png", fullPage: true });
});
