// The engine page's dry run and flow graph: an owner loosens the saved rule, runs the last classifications
// through the edited configuration without writing anything, sees one subject that would retire and one
// that would not (and which outcome differs from the saved configuration's), then saves.
import { expect, test, type APIRequestContext } from "@playwright/test";
import {
  accessToken,
  API_ACCEPT,
  classifiableWorkflow,
  createProject,
  newUser,
  registerUser,
  signIn,
  uniqueName,
  postClassification,
} from "../support";

/**
 * A new owner's project with a two-subject workflow whose saved engine configuration extracts T0, reduces
 * by consensus and retires a subject at `votes` votes for one answer.
 */
async function ownerWithConsensusEngine(request: APIRequestContext, name: string, votes: number) {
  const owner = newUser(`lab_${name.toLowerCase()}`);
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  const project = await createProject(request, token, { display_name: uniqueName(name) });
  const w = await classifiableWorkflow(request, token, project.id, 2);
  const engineHeaders = { Accept: "application/json", Authorization: `Bearer ${token}` };
  const saved = await request.post("/engine/workflows", {
    headers: engineHeaders,
    data: {
      workflow: {
        id: Number(w.workflowId),
        extractors_config: { q: { type: "question", task_key: "T0" } },
        reducers_config: { c: { type: "consensus" } },
        rules_config: [
          { if: ["gte", ["lookup", "c.num_votes", 0], ["const", votes]], then: [{ action: "retire_subject", reason: "consensus" }] },
        ],
      },
    },
  });
  expect(saved.status()).toBe(201);
  return { owner, token, project, w, engineHeaders };
}

test("an owner dry-runs an edited engine configuration on recent classifications, then saves it", async ({ page, request }) => {
  const { owner, token, project, w, engineHeaders } = await ownerWithConsensusEngine(request, "Dry", 4);
  // Subject 1: three alike; subject 2: split.
  for (const [subject, value] of [
    [0, 0],
    [0, 0],
    [0, 0],
    [1, 0],
    [1, 1],
  ] as const) {
    await postClassification(request, {
      project: project.id,
      workflow: w.workflowId,
      version: w.version,
      subjects: [w.subjectIds[subject]],
      annotations: [{ task: "T0", value }],
    });
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, owner.login, owner.password);
  await page.goto(`/lab/projects/${project.id}/workflows/${w.workflowId}/engine`);
  const flow = page.getByTestId("engine-flow");
  const node = (id: string) => flow.locator(`.react-flow__node[data-id="${id}"]`);
  await node("rule:0").click();
  await expect(page.getByLabel("Rule 1 condition, part 1: value")).toHaveValue("4");
  // Nodes in the researcher's words; the raw names in their tooltips.
  await expect(node("x:q")).toContainText("Task 1: ?");
  await expect(node("x:q").locator("[title]")).toHaveAttribute("title", "q: question on T0");
  await expect(node("r:c")).toContainText("Consensus (the most common answer)");
  await expect(node("rule:0")).toContainText("if its number of votes is at least 4");
  await expect(node("rule:0").locator("[title]")).toHaveAttribute("title", "if c.num_votes ≥ 4");
  await expect(node("effect:0:0")).toContainText("Retire the subject");
  await expect(node("effect:0:0")).toContainText("Reason: consensus");

  // Loosened to 3, tried on the last classifications: subject 1 would retire, subject 2 would not.
  await page.getByLabel("Rule 1 condition, part 1: value").fill("3");
  await expect(node("rule:0")).toContainText("if its number of votes is at least 3");
  await page.getByLabel("How many recent classifications").fill("20");
  await page.getByRole("button", { name: "Run the dry run" }).click();
  const result = page.getByTestId("dry-run-result");
  await expect(result.getByRole("status")).toContainText("5 classifications, 5 extracts, 2 reductions.");
  await expect(page.getByTestId(`dry-run-subject-${w.subjectIds[0]}`)).toContainText("would retire (consensus)");
  await expect(page.getByTestId(`dry-run-subject-${w.subjectIds[0]}`)).toContainText("(differs)");
  await expect(page.getByTestId(`dry-run-subject-${w.subjectIds[1]}`)).toContainText("would not retire");
  await page.screenshot({ path: "test-results/screenshots/lab-dry-run-1280.png", fullPage: true });

  // Nothing was written: no subject retired, the saved rule unchanged.
  const workflow = (
    await (
      await request.get(`/api/workflows/${w.workflowId}`, { headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` } })
    ).json()
  ).workflows[0];
  expect(workflow.retired_set_member_subjects_count).toBe(0);
  expect(
    (await (await request.get(`/engine/workflows/${w.workflowId}`, { headers: engineHeaders })).json()).workflow.rules_config[0].if[2],
  ).toEqual(["const", 4]);

  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  expect(
    (await (await request.get(`/engine/workflows/${w.workflowId}`, { headers: engineHeaders })).json()).workflow.rules_config[0].if[2],
  ).toEqual(["const", 3]);
});

test("with subjects and no classifications yet: the prefilled example runs as it is, and sample classifications give a result", async ({
  page,
  request,
}) => {
  const { owner, project, w } = await ownerWithConsensusEngine(request, "Drysample", 3);

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, owner.login, owner.password);
  await page.goto(`/lab/projects/${project.id}/workflows/${w.workflowId}/engine`);
  const panel = page.getByRole("region", { name: "Dry run" });
  await expect(panel.getByText("No volunteer has classified this workflow yet")).toBeVisible();
  await expect(panel.getByRole("radio", { name: "Sample classifications by" })).toBeChecked();

  // The example, made from the workflow's own task, runs unedited: three volunteers agree on subject 1.
  await panel.getByRole("radio", { name: "Pasted classifications" }).check();
  const pasted = panel.getByRole("textbox", { name: /^Classifications \(JSON array/ });
  await expect(pasted).toHaveValue(new RegExp(`"subject_id": ${w.subjectIds[0]},[\\s\\S]*"task": "T0",\\s*"value": 0`));
  await panel.getByRole("button", { name: "Run the dry run" }).click();
  const result = panel.getByTestId("dry-run-result").getByRole("status");
  await expect(result).toContainText("3 classifications, 3 extracts, 1 reductions.");
  await expect(result).toContainText("The rules would retire 1 subject; save the configuration to make it live.");
  await expect(panel.getByTestId(`dry-run-subject-${w.subjectIds[0]}`)).toContainText("would retire (consensus)");

  // Sample classifications: five simulated volunteers on each of the two subjects, run at once.
  await panel.getByRole("radio", { name: "Sample classifications by" }).check();
  await panel.getByRole("button", { name: "Make sample classifications and run" }).click();
  await expect(result).toContainText("10 classifications, 10 extracts, 2 reductions.");
  await expect(result).toContainText("Ran on 10 sample classifications (5 simulated volunteers on 2 subjects, nothing saved)");
  await page.screenshot({ path: "test-results/screenshots/lab-dry-run-samples-1280.png", fullPage: true });
});
