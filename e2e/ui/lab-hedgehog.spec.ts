// A new researcher builds the hedgehog project in the lab through its pages alone, without typing a task
// key or a field name: a branching question ("Is there an animal?" Yes → a drawing task, No → the end),
// subjects from a manifest (the set asked for), and the decision engine (a question extractor on the
// question picked by its words, a consensus reducer, a rule "the most common answer is No, with at least 3
// votes → retire" written as a sentence) tried in a dry run and saved. Screenshots of the workflow editor
// and the engine builder, a node selected, at 1280 and 375 px.
import { expect, test } from "@playwright/test";
import { addOnCanvas, expectInside } from "../flow-canvas";
import { accessToken, API_ACCEPT, createProjectInLab, newUser, registerUser, signIn, uniqueName } from "../support";

test("a new researcher builds the hedgehog project without typing a task key or a field name", async ({ page, request }) => {
  test.setTimeout(120_000);
  const researcher = newUser("hedgehog");
  await registerUser(request, researcher);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, researcher.login, researcher.password);
  const projectId = await createProjectInLab(page, uniqueName("Hedgehogs"));

  // The workflow: the question, then a drawing task added with the canvas's "+ Add" menu.
  await page.getByLabel("Workflow name").fill("Find hedgehogs");
  await page.getByLabel("Task 1 question").fill("Is there an animal?");
  await page.getByLabel("Task 1 answer 1", { exact: true }).fill("Yes");
  await page.getByLabel("Task 1 answer 2", { exact: true }).fill("No");
  await addOnCanvas(page, "branching-graph", "Task: Drawing (marks)");
  await expect(page.getByRole("heading", { name: "Task 2", exact: true })).toBeFocused();
  await page.getByLabel("Task 2 instruction").fill("Draw a box around the hedgehog");
  await page.getByLabel("Task 2 tool 1 type").selectOption({ label: "Rectangle" });
  await page.getByLabel("Task 2 tool 1 label").fill("Hedgehog");
  // Yes leads to the drawing task, picked by its words.
  await page.getByLabel("Task to edit").selectOption({ label: "Task 1: Is there an animal?" });
  await page.getByLabel("Task 1 answer 1 (Yes) leads to").selectOption({ label: "Task 2: Draw a box around the hedgehog" });
  const node = (canvas: string, id: string) => page.getByTestId(canvas).locator(`.react-flow__node[data-id="${id}"]`);
  await expect(node("branching-graph", "T0")).toContainText(/Yes\s*→ Task 2/);
  await expect(node("branching-graph", "T0")).toContainText(/No\s*→ end/);

  // Created: its editor opens with a "Created" message and the tasks as built.
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(page.getByRole("heading", { name: "Find hedgehogs" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Created “Find hedgehogs”" })).toBeVisible();
  await expect(page.getByLabel("Task 1 question")).toHaveValue("Is there an animal?");
  await expect(page.getByLabel("Task 1 answer 1 (Yes) leads to").locator("option:checked")).toHaveText(
    "Task 2: Draw a box around the hedgehog",
  );
  const workflowId = page.url().match(/workflows\/(\d+)/)![1];
  await expectInside(page, "branching-graph");
  await node("branching-graph", "T1").click();
  await expect(page.getByLabel("Task 2 tool 1 label")).toHaveValue("Hedgehog");
  await page.screenshot({ path: "test-results/screenshots/lab-hedgehog-workflow-1280.png", fullPage: true });

  // At 375 px the form is below the canvas: opening a node moves the focus (and the view) to it, and back.
  await page.setViewportSize({ width: 375, height: 800 });
  await node("branching-graph", "T0").click();
  const heading = page.getByRole("heading", { name: "Task 1: Is there an animal?" });
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();
  await page.screenshot({ path: "test-results/screenshots/lab-hedgehog-workflow-375.png", fullPage: true });
  await page
    .getByRole("region", { name: "Task 1: Is there an animal?" })
    .screenshot({ path: "test-results/screenshots/lab-hedgehog-workflow-panel-375.png" });
  // Nothing wider than the phone (the long "leads to" choices wrap or shrink).
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.getByRole("button", { name: "Back to the canvas" }).click();
  await expect(node("branching-graph", "T0")).toBeFocused();
  await expect(node("branching-graph", "T0")).toBeInViewport();
  await page.setViewportSize({ width: 1280, height: 900 });

  // Subjects from a manifest: the import asks which set they go into.
  await page.goto(`/lab/projects/${projectId}/subjects`);
  await page.getByLabel("New subject set name").fill("Garden cameras");
  await page.getByLabel("Choose a manifest file").setInputFiles({
    name: "hedgehogs.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      "location,camera\nhttps://example.org/h1.png,North\nhttps://example.org/h2.png,South\nhttps://example.org/h3.png,East\n",
    ),
  });
  await expect(page.getByTestId("manifest-drop-zone")).toContainText("hedgehogs.csv (3 rows)");
  await page.getByRole("button", { name: "Import subjects" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Done: 3 subjects imported into the set “Garden cameras”." })).toBeVisible({
    timeout: 30_000,
  });
  // The next import asks again (the set just made is one of the choices, not silently chosen).
  await page.getByRole("button", { name: "Import another manifest" }).click();
  await expect(page.getByLabel("Into subject set")).toHaveValue("");
  await expect(page.getByLabel("Into subject set").locator("option", { hasText: "Garden cameras" })).toHaveCount(1);

  // The decision engine, on its canvas.
  await page.goto(`/lab/projects/${projectId}`);
  await page.getByRole("link", { name: "Decision engine of Find hedgehogs" }).click();
  await expect(page.getByTestId("engine-flow")).toHaveAttribute("data-ready", "true");
  await addOnCanvas(page, "engine-flow", /^Extractor/);
  await expect(page.getByRole("heading", { name: "Extractor q" })).toBeFocused();
  await page.getByLabel("q: the task it reads").selectOption({ label: "Task 1: Is there an animal?" });
  await addOnCanvas(page, "engine-flow", /^Reducer/);
  await expect(page.getByLabel("Reducer 1 type").locator("option:checked")).toHaveText("Consensus (the most common answer)");
  await addOnCanvas(page, "engine-flow", /^Rule/);
  // The rule as a sentence: the most common answer is No, with at least 3 votes.
  const condition = page.getByRole("group", { name: "Rule 1 condition" });
  await condition.getByLabel("Rule 1 condition, part 1: what").selectOption({ label: "the most common answer" });
  await condition.getByLabel("Rule 1 condition, part 1: answer").selectOption({ label: "No" });
  await condition.getByRole("button", { name: "Add a condition to Rule 1 condition" }).click();
  await expect(condition.getByLabel("Rule 1 condition, part 2: what").locator("option:checked")).toHaveText("its number of votes");
  await expect(condition.getByLabel("Rule 1 condition, part 2: comparison").locator("option:checked")).toHaveText("is at least");
  await expect(condition.getByLabel("Rule 1 condition, part 2: value")).toHaveValue("3");
  await expect(condition).toContainText("Reads: the most common answer is No and its number of votes is at least 3");
  await expect(page.getByRole("combobox", { name: "Rule 1, effect 1", exact: true }).locator("option:checked")).toHaveText(
    "Retire the subject",
  );
  // A second effect: the subject goes to a subject set, picked by its name.
  await addOnCanvas(page, "engine-flow", /^Effect \(to Rule 1\)/);
  await page.getByRole("combobox", { name: "Rule 1, effect 2", exact: true }).selectOption({ label: "Add the subject to a subject set" });
  await page.getByLabel("Rule 1, effect 2: Subject set").selectOption({ label: "Garden cameras" });
  await expect(node("engine-flow", "rule:0")).toContainText("if the most common answer is No and its number of votes is at least 3");
  await expect(node("engine-flow", "x:q")).toContainText("Task 1: Is there an animal?");
  // The effect's node names the set, not its id.
  await expect(node("engine-flow", "effect:0:1")).toContainText("Subject set: Garden cameras");
  await expectInside(page, "engine-flow");
  await page.screenshot({ path: "test-results/screenshots/lab-hedgehog-engine-1280.png", fullPage: true });

  // A dry run on sample classifications.
  const dryRun = page.getByRole("region", { name: "Dry run" });
  await dryRun.getByRole("radio", { name: "Sample classifications by" }).check();
  await dryRun.getByRole("button", { name: "Make sample classifications and run" }).click();
  await expect(dryRun.getByTestId("dry-run-result").getByRole("status")).toContainText("classifications");

  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const token = await accessToken(request, researcher.login, researcher.password);
  const sets = await (
    await request.get(`/api/subject_sets?project_id=${projectId}`, { headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` } })
  ).json();
  const gardenSet = sets.subject_sets.find((s: { display_name: string }) => s.display_name === "Garden cameras").id;
  const saved = (
    await (
      await request.get(`/engine/workflows/${workflowId}`, { headers: { Accept: "application/json", Authorization: `Bearer ${token}` } })
    ).json()
  ).workflow;
  expect(saved.extractors_config).toEqual({ q: expect.objectContaining({ type: "question", task_key: "T0" }) });
  expect(saved.reducers_config.c).toMatchObject({ type: "consensus" });
  expect(saved.rules_config).toEqual([
    {
      topic: "subject",
      if: ["and", ["eq", ["lookup", "c.most_likely"], ["const", "1"]], ["gte", ["lookup", "c.num_votes", 0], ["const", 3]]],
      then: [
        { action: "retire_subject", reason: "consensus" },
        { action: "add_subject_to_set", subject_set_id: gardenSet },
      ],
    },
  ]);
  const workflow = (
    await (await request.get(`/api/workflows/${workflowId}`, { headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` } })).json()
  ).workflows[0];
  expect(workflow.tasks.T0.answers).toEqual([{ label: "Yes", next: "T1" }, { label: "No" }]);
  expect(workflow.tasks.T1).toMatchObject({ type: "drawing", tools: [expect.objectContaining({ type: "rectangle", label: "Hedgehog" })] });

  // At 375 px: a node opened moves the focus to its form below the canvas, and back. The saved rule still
  // reads as the sentence, its answer by its label.
  await page.setViewportSize({ width: 375, height: 800 });
  await node("engine-flow", "rule:0").click();
  await expect(condition.getByLabel("Rule 1 condition, part 1: answer").locator("option:checked")).toHaveText("No");
  await expect(page.getByRole("heading", { name: "Rule 1", exact: true })).toBeFocused();
  await expect(page.getByRole("heading", { name: "Rule 1", exact: true })).toBeInViewport();
  await page.screenshot({ path: "test-results/screenshots/lab-hedgehog-engine-375.png", fullPage: true });
  await page
    .getByRole("region", { name: "Rule 1", exact: true })
    .screenshot({ path: "test-results/screenshots/lab-hedgehog-engine-panel-375.png" });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.getByRole("button", { name: "Back to the canvas" }).click();
  await expect(node("engine-flow", "rule:0")).toBeFocused();
});
