// The lab's monitoring view of a workflow: after volunteers classify, the owner sees the reductions, the
// retired subject with its reason, the engine's completed action, and downloads the classifications export.
import fs from "node:fs";
import { scan } from "../a11y";
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
        reducers_config: { c: { type: "consensus" }, s: { type: "stats" } },
        rules_config: [
          { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 2]], then: [{ action: "retire_subject", reason: "consensus" }] },
        ],
      },
    },
  });
  expect(configured.status()).toBe(201);
  // Volunteers: the first subject twice "Yes" (retired), the second once "No".
  for (const [subject, value] of [
    [w.subjectIds[0], 0],
    [w.subjectIds[0], 0],
    [w.subjectIds[1], 1],
  ] as const) {
    await postClassification(request, {
      project: project.id,
      workflow: w.workflowId,
      version: w.version,
      subjects: [subject],
      annotations: [{ task: "T0", value }],
    });
  }

  // The subjects' pictures (example.org, offline here) answered with a 1x1 PNG.
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
  await page.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/png", body: png }));
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
  // Reductions per subject: the picture, the status, answer counts as bars labelled with the task's answers,
  // the consensus named, and the full JSON a click away.
  const reductions = page.getByRole("region", { name: "Reductions per subject" });
  const first = reductions.getByTestId(`monitor-subject-${w.subjectIds[0]}`);
  const second = reductions.getByTestId(`monitor-subject-${w.subjectIds[1]}`);
  await expect(first).toContainText("retired (consensus)");
  await expect(second).toContainText("active");
  await expect(first.locator("img")).toHaveAttribute("src", "https://example.org/0.png");
  await expect(first.getByText("Most likely: Yes")).toBeVisible();
  const counts = first.getByRole("list", { name: `s for subject ${w.subjectIds[0]}: answer counts` });
  // Every answer of the yes/no question is named, in both the counts and the consensus (never "Other answers").
  await expect(counts.getByRole("listitem")).toHaveText(["Yesmost votes: 2", "No: 0"]);
  const secondCounts = second.getByRole("list", { name: /answer counts/ });
  await expect(secondCounts.getByRole("listitem")).toHaveText(["Yes: 0", "Nomost votes: 1"]);
  await expect(first.getByRole("list", { name: /c for subject .*: votes/ }).getByRole("listitem")).toHaveText([
    "Yesmost likely: 2",
    "No: 0",
  ]);
  await expect(second.getByRole("list", { name: /c for subject .*: votes/ }).getByRole("listitem")).toHaveText([
    "Nomost likely: 1",
    "Yes: 0",
  ]);
  // One scale across the view: every track is as long as every other (a highlighted row's note takes no
  // room from its bar), and "Yes: 2" on the first subject is twice as long as "No: 1" on the second.
  const tracks = await reductions
    .locator("[data-bar-track]")
    .evaluateAll((ts) => ts.map((t) => Math.round(t.getBoundingClientRect().width)));
  expect(tracks.length).toBe(8);
  expect(new Set(tracks).size).toBe(1);
  const width = async (list: typeof counts, value: number) =>
    (await list.locator(`[data-bar-value="${value}"]`).first().boundingBox())!.width;
  const two = await width(counts, 2);
  const one = await width(secondCounts, 1);
  expect(two / one).toBeCloseTo(2, 1);
  // How close each active subject is to retiring, from the engine's rule (c.num_votes >= 2).
  await expect(page.getByTestId("retire-target")).toContainText("A subject retires at 2 (c.num_votes");
  await expect(second.getByTestId("votes-to-retire")).toHaveText("1 of 2 votes to retire");
  await expect(second.getByRole("progressbar", { name: `Subject ${w.subjectIds[1]}: 1 of 2 votes to retire` })).toBeVisible();
  await expect(first.getByTestId("votes-to-retire")).toHaveCount(0);
  // The bar beside it is half full, in the brand colour.
  const retireBar = second.getByRole("progressbar");
  const fill = retireBar.locator("[data-progress-fill]");
  expect(await fill.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe("rgb(31, 111, 92)");
  expect((await fill.boundingBox())!.width / (await retireBar.boundingBox())!.width).toBeCloseTo(0.5, 1);
  const disclosure = first.locator("details").filter({ hasText: `Show JSON of c for subject ${w.subjectIds[0]}` });
  await disclosure.locator("summary").click();
  const pre = disclosure.locator("pre");
  await expect(pre).toBeVisible();
  expect(JSON.parse((await pre.textContent())!)).toEqual({ most_likely: "0", num_votes: 2, agreement: 1 });
  // The drawn reductions (bars, badges, the open JSON) pass axe as the lab's other pages do.
  await scan(page, "the monitor", "#main");
  const actions = page.getByRole("region", { name: "Action log" });
  await expect(actions.getByRole("row").nth(1)).toContainText("retire_subject");
  await expect(actions.getByRole("row").nth(1)).toContainText("completed");

  const exports = page.getByRole("region", { name: "Classifications export" });
  await expect(exports.getByText("No export has been requested yet.")).toBeVisible();
  await exports.getByRole("button", { name: "Request a new export" }).click();
  const link = exports.getByRole("link", { name: "Download the classifications export (CSV)" });
  await expect(link).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: "test-results/screenshots/lab-monitor-1280.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(first.locator("img")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: "test-results/screenshots/lab-monitor-reductions-375.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  const lines = csv.trim().split("\n");
  expect(lines[0]).toMatch(/^classification_id,user_name,user_id,workflow_id/);
  expect(lines).toHaveLength(4);
});
