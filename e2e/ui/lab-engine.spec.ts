// The lab's visual builder for the decision engine: a project owner builds extractors, a reducer and a
// nested rule with forms, a mistake is refused with the server's message, the saved configuration is
// exactly what the forms showed, and the live pipeline then acts on it.
import { expect, test } from "@playwright/test";
import {
  accessToken,
  classifiableWorkflow,
  createProject,
  newUser,
  registerUser,
  signIn,
  uniqueName,
  postClassification,
} from "../support";
import { addOnCanvas, dragHandle, expectInside } from "../flow-canvas";

test("a project owner builds the decision engine's configuration visually, and it retires subjects", async ({ page, request }) => {
  const owner = newUser("ui_lab");
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  const project = await createProject(request, token, { display_name: uniqueName("Lab") });
  const w = await classifiableWorkflow(request, token, project.id, 2);

  await signIn(page, owner.login, owner.password);
  await page.goto(`/projects/${project.id}`);
  await page.getByRole("link", { name: "Open this project in the lab" }).click();
  await page.getByRole("link", { name: /^Decision engine of / }).click();
  await expect(page.getByRole("heading", { name: "Decision engine" })).toBeVisible();
  await expect(page.getByText("This workflow is not in the decision engine yet.")).toBeVisible();

  await expect(page.getByTestId("engine-flow")).toHaveAttribute("data-ready", "true");
  await addOnCanvas(page, "engine-flow", /^Extractor/);
  await expect(page.getByLabel("Extractor 1 key")).toHaveValue("q");
  // The task it reads, by its words; the key only in the tooltip.
  await expect(page.getByLabel("q: the task it reads")).toHaveValue("T0");
  await expect(page.getByLabel("q: the task it reads").locator("option:checked")).toHaveText("Task 1: ?");
  await addOnCanvas(page, "engine-flow", /^Reducer/);
  await expect(page.getByLabel("Reducer 1 type")).toHaveValue("consensus");
  await addOnCanvas(page, "engine-flow", /^Rule/);
  // Rule 1: c.num_votes ≥ 1 and c.agreement ≥ 0.5, in the advanced blocks.
  await page.getByRole("radio", { name: "Advanced (blocks or JSON)" }).check();
  await page.getByLabel("Rule 1 condition: kind").selectOption("and");
  await page.getByLabel("Rule 1 condition, part 1: right: value").fill("1");
  await page.getByRole("button", { name: "Add a part to Rule 1 condition" }).click();
  await page.getByLabel("Rule 1 condition, part 2: left: lookup").fill("c.agreement");
  await page.getByLabel("Rule 1 condition, part 2: right: value").fill("0.5");
  await page.getByLabel("Rule 1, effect 1: reason").selectOption("consensus");

  // A grouping field no extractor provides: refused, with the path, and nothing saved.
  await page.getByLabel("Part to edit").selectOption({ label: "Reducer c" });
  await page.getByText("Filters and grouping").click();
  await page.getByLabel("c: group by (extractor.field)").fill("nope.field");
  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "reducers_config.c.grouping.field_name" })).toContainText(
    "'nope' is not a configured extractor",
  );
  const none = await request.get(`/engine/workflows/${w.workflowId}`, {
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
  });
  expect(none.status()).toBe(404);
  await page.getByLabel("c: group by (extractor.field)").fill("");

  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const saved = await request.get(`/engine/workflows/${w.workflowId}`, {
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
  });
  expect(saved.status()).toBe(200);
  const config = (await saved.json()).workflow;
  expect(config).toMatchObject({ id: Number(w.workflowId), status: "active", rules_applied: "all_matching_rules" });
  expect(config.extractors_config).toEqual({ q: expect.objectContaining({ type: "question", task_key: "T0" }) });
  expect(Object.keys(config.reducers_config)).toEqual(["c"]);
  expect(config.reducers_config.c).toMatchObject({ type: "consensus", topic: "reduce_by_subject" });
  expect(config.reducers_config.c.grouping).toBeUndefined();
  expect(config.rules_config).toEqual([
    {
      topic: "subject",
      if: ["and", ["gte", ["lookup", "c.num_votes", 0], ["const", 1]], ["gte", ["lookup", "c.agreement", 0], ["const", 0.5]]],
      then: [{ action: "retire_subject", reason: "consensus" }],
    },
  ]);

  // Reopened, the builder shows what was saved (as a sentence, or in the blocks); a change is a PUT.
  await page.reload();
  await page.getByLabel("Part to edit").selectOption({ label: "Rule 1" });
  await expect(page.getByRole("group", { name: "Rule 1 condition" })).toContainText(
    "Reads: its number of votes is at least 1 and its share of the votes (0 to 1) is at least 0.5",
  );
  await page.getByRole("radio", { name: "Advanced (blocks or JSON)" }).check();
  await expect(page.getByLabel("Rule 1 condition, part 2: left: lookup")).toHaveValue("c.agreement");
  await page.getByLabel("Status").selectOption("paused");
  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  // A lookup of a reducer that is not configured is saved, with a warning (it always yields its default).
  await page.getByLabel("Rule 1 condition, part 2: left: lookup").fill("later.agreement");
  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved, with warnings." })).toContainText(
    "'later' is not a configured reducer, so it always yields its default",
  );
  await page.getByLabel("Rule 1 condition, part 2: left: lookup").fill("c.agreement");
  await page.getByLabel("Status").selectOption("active");
  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

  // The pipeline acts on it: one classification retires its subject.
  await postClassification(request, { project: project.id, workflow: w.workflowId, version: w.version, subjects: [w.subjectIds[0]] });
  await expect
    .poll(
      async () =>
        (
          await (
            await request.get(`/engine/workflows/${w.workflowId}/actions`, {
              headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
            })
          ).json()
        ).map((a: { status: string; subject_id: number }) => [a.subject_id, a.status]),
      { timeout: 15_000 },
    )
    .toEqual([[Number(w.subjectIds[0]), "completed"]]);
});

test("the lab is not found for visitors who cannot edit the project", async ({ page, request }) => {
  const token = await accessToken(request);
  const project = await createProject(request, token, { display_name: uniqueName("Lab other") });
  const w = await classifiableWorkflow(request, token, project.id, 1);
  // Signed out, a lab link goes to sign in (and back after it: e2e/ui/auth.spec.ts).
  await page.goto(`/lab/projects/${project.id}`);
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?return_to=${encodeURIComponent(`/lab/projects/${project.id}`)}$`));
  const visitor = newUser("ui_lab_v");
  await registerUser(request, visitor);
  await signIn(page, visitor.login, visitor.password);
  expect((await page.goto(`/lab/projects/${project.id}/workflows/${w.workflowId}/engine`))?.status()).toBe(404);
  await page.goto(`/projects/${project.id}`);
  await expect(page.getByRole("link", { name: "Open this project in the lab" })).toHaveCount(0);
});

test("a project owner builds an extractor → reducer → rule pipeline on the canvas; its menus show human labels", async ({
  page,
  request,
}) => {
  const owner = newUser("ui_canvas");
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  const project = await createProject(request, token, { display_name: uniqueName("Canvas") });
  const w = await classifiableWorkflow(request, token, project.id, 1);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, owner.login, owner.password);
  await page.goto(`/lab/projects/${project.id}/workflows/${w.workflowId}/engine`);

  // Nodes added on the canvas; the view fits them all after each, without a reload.
  const flow = page.getByRole("figure").filter({ hasText: "Flow: extractors" });
  const node = (id: string) => page.getByTestId("engine-flow").locator(`.react-flow__node[data-id="${id}"]`);
  await expect(page.getByTestId("engine-flow")).toHaveAttribute("data-ready", "true");
  await addOnCanvas(page, "engine-flow", /^Extractor/);
  await addOnCanvas(page, "engine-flow", /^Rule/); // before any reducer: it looks up the subject
  await expect(page.getByRole("heading", { name: "Rule 1" })).toBeFocused();
  await expect(page.getByLabel("Rule 1 condition, part 1: what").locator("option:checked")).toHaveText("the subject's priority");
  await addOnCanvas(page, "engine-flow", /^Reducer/);
  await addOnCanvas(page, "engine-flow", /^Reducer/);
  await expectInside(page, "engine-flow");

  // A node removed with Delete, after a confirmation; another opened with Enter.
  page.once("dialog", (d) => void d.accept());
  await node("r:c2").focus();
  await page.keyboard.press("Delete");
  await expect(node("r:c2")).toHaveCount(0);
  await node("r:c").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Reducer c" })).toBeFocused();

  // Linked by dragging: the reducer reads the extractor, the rule looks the reducer up.
  await dragHandle(page, node("x:q").locator(".react-flow__handle.source"), node("r:c").locator(".react-flow__handle.target"));
  await dragHandle(page, node("r:c").locator(".react-flow__handle.source"), node("rule:0").locator(".react-flow__handle.target"));
  await expectInside(page, "engine-flow");

  // Menus: human labels, the internal name in small print.
  await node("r:c").click();
  await expect(page.getByLabel("c: reduce by").locator("option:checked")).toHaveText("Each subject");
  await expect(page.getByText("reduce_by_subject", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Reducer 1 type").locator("option:checked")).toHaveText("Consensus (the most common answer)");
  await node("rule:0").click();
  await expect(page.getByLabel("Rule 1 condition, part 1: what")).toHaveValue("c.num_votes");
  await expect(page.getByLabel("Rule 1 condition, part 1: what").locator("option:checked")).toHaveText("its number of votes");
  await expect(page.getByLabel("Rule 1 condition, part 1: comparison").locator("option:checked")).toHaveText("is at least");

  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const config = (
    await (
      await request.get(`/engine/workflows/${w.workflowId}`, { headers: { Accept: "application/json", Authorization: `Bearer ${token}` } })
    ).json()
  ).workflow;
  expect(Object.keys(config.extractors_config)).toEqual(["q"]);
  expect(Object.keys(config.reducers_config)).toEqual(["c"]);
  expect(config.reducers_config.c).toMatchObject({ type: "consensus", filters: { extractor_keys: ["q"] } });
  expect(config.rules_config).toEqual([
    {
      topic: "subject",
      if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]],
      then: [{ action: "retire_subject", reason: "consensus" }],
    },
  ]);

  // A link removed from the keyboard: focused, Delete, confirmed; the rule no longer looks the reducer up.
  const link = page.getByTestId("engine-flow").getByRole("group", { name: "Link from reducer c to Rule 1" });
  await link.focus();
  await page.keyboard.press("Enter"); // selected: its "Remove link" button shows
  await expect(flow.getByRole("button", { name: "Remove link" })).toBeVisible();
  page.once("dialog", (d) => void d.accept());
  await link.press("Delete");
  await expect(link).toHaveCount(0);
  await expect(page.getByRole("group", { name: "Rule 1 condition" })).toContainText("Always (no condition)");
  await page.getByRole("button", { name: "Save configuration" }).click();
  const stored = async () =>
    (
      await (
        await request.get(`/engine/workflows/${w.workflowId}`, {
          headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
        })
      ).json()
    ).workflow;
  await expect.poll(async () => (await stored()).rules_config[0].if).toEqual(["const", true]);
  expect((await stored()).reducers_config.c.filters).toMatchObject({ extractor_keys: ["q"] });
  await page.screenshot({ path: "test-results/screenshots/lab-engine-canvas-1280.png", fullPage: true });
});
