// The lab's monitoring view of a workflow: after volunteers classify, the owner sees the reductions, the
// retired subject with its reason, the engine's completed action, and downloads the classifications export.
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { accessToken, API_ACCEPT, classifiableWorkflow, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

test("an owner monitors a workflow: reductions, retirement with its reason, actions, the export downloaded", async ({ page, request }) => {
  test.setTimeout(120_000);
  const owner = newUser("lab_mon");
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  const name = uniqueName("Watched");
  const project = await createProject(request, token, { display_name: name });
  const w = await classifiableWorkflow(request, token, project.id, 2);
  const configured = await request.post("/engine/workflows", {
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
    data: {
      workflow: {
        id: Number(w.workflowId),
        extractors_config: { q: { type: "question", task_key: "T0" } },
        reducers_config: { c: { type: "consensus" } },
        rules_config: [
          { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 2]], then: [{ action: "retire_subject", reason: "consensus" }] },
        ],
      },
    },
  });
  expect(configured.status()).toBe(201);
  // Volunteers: the first subject twice alike (retired), the second once.
  for (const subject of [w.subjectIds[0], w.subjectIds[0], w.subjectIds[1]]) {
    const res = await request.post("/api/classifications", {
      headers: { Accept: API_ACCEPT },
      data: {
        classifications: {
          annotations: [{ task: "T0", value: 0 }],
          metadata: {
            started_at: new Date().toISOString(),
            finished_at: new Date().toISOString(),
            user_agent: "e2e",
            user_language: "en",
            workflow_version: w.version,
          },
          links: { project: project.id, workflow: w.workflowId, subjects: [subject] },
        },
      },
    });
    expect(res.status()).toBe(201);
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, owner.login, owner.password);
  await page.goto(`/lab/projects/${project.id}`);
  await page
    .getByRole("link", { name: `Monitor ${w.workflowId}` })
    .or(page.getByRole("link", { name: /^Monitor / }))
    .first()
    .click();
  await expect(page.getByRole("heading", { name: /^Monitoring:/ })).toBeVisible();

  const retired = page.getByRole("region", { name: "Retired subjects" });
  await expect(retired.getByRole("row").nth(1)).toContainText(`${w.subjectIds[0]}consensus`, { timeout: 30_000 });
  const reductions = page.getByRole("region", { name: "Reductions per subject" });
  await expect(reductions.getByRole("row").filter({ hasText: "retired (consensus)" })).toHaveCount(1);
  await expect(reductions.getByRole("row").filter({ hasText: /^\d+c/ }).filter({ hasText: "active" })).toHaveCount(1);
  const actions = page.getByRole("region", { name: "Action log" });
  await expect(actions.getByRole("row").nth(1)).toContainText("retire_subject");
  await expect(actions.getByRole("row").nth(1)).toContainText("completed");

  const exports = page.getByRole("region", { name: "Classifications export" });
  await expect(exports.getByText("No export has been requested yet.")).toBeVisible();
  await exports.getByRole("button", { name: "Request a new export" }).click();
  const link = exports.getByRole("link", { name: "Download the classifications export (CSV)" });
  await expect(link).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: "test-results/screenshots/lab-monitor-1280.png", fullPage: true });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  const lines = csv.trim().split("\n");
  expect(lines[0]).toMatch(/^classification_id,user_name,user_id,workflow_id/);
  expect(lines).toHaveLength(4);
});
