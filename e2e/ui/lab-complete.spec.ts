// The project builder from end to end, as a research team uses it with nothing but the lab: a project
// with a drawing workflow and a survey workflow, subjects from a manifest, a collaborator invited who then
// edits a workflow, the decision engine built and dry-run (one subject would retire, one would not) and
// saved; volunteers classify; the monitoring view shows the retirement and its reason, and the
// classifications export is downloaded.
import fs from "node:fs";
import { addOnCanvas } from "../flow-canvas";
import { expect, test, type Page } from "@playwright/test";
import { E2E_BASE_URL } from "../env";
import { API_ACCEPT, createProjectInLab, newUser, registerUser, signIn, uniqueName, postClassification } from "../support";

async function dropManifest(page: Page, csv: string) {
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], "owls.csv", { type: "text/csv" }));
    return dt;
  }, csv);
  await page.getByTestId("manifest-drop-zone").dispatchEvent("drop", { dataTransfer });
}

test("a team builds, tests and runs a project entirely in the lab", async ({ page, request, browser }) => {
  test.setTimeout(180_000);
  const owner = newUser("lab_team");
  const helper = newUser("lab_mate");
  await registerUser(request, owner);
  await registerUser(request, helper);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, owner.login, owner.password);

  // The project.
  const projectId = await createProjectInLab(page, uniqueName("Owl watch"));

  // A drawing workflow.
  await page.getByLabel("Workflow name").fill("Mark owls");
  await page.getByLabel("Task 1 type").selectOption("drawing");
  await page.getByLabel("Task 1 instruction").fill("Mark each owl");
  await page.getByLabel("Task 1 tool 1 label").fill("Owl");
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Created “Mark owls”" })).toBeVisible();
  await page.goto(`/lab/projects/${projectId}`);

  // A survey workflow.
  await page.getByLabel("Workflow name").fill("Identify owls");
  await page.getByLabel("Retire after this many classifications (empty: never)").fill("");
  await page.getByLabel("Task 1 type").selectOption("survey");
  await page.getByLabel("Task 1 instruction").fill("Which owl?");
  for (const c of ["Barn owl", "Tawny owl"]) {
    await page.getByLabel("New choice").fill(c);
    await page.getByRole("button", { name: "Add choice" }).click();
  }
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Created “Identify owls”" })).toBeVisible();

  // Subjects from a manifest, in a new set that every workflow shows.
  await page.getByRole("navigation", { name: "Project builder" }).getByRole("link", { name: "Subjects" }).click();
  await page.getByLabel("Into subject set").selectOption({ label: "A new subject set…" });
  await page.getByLabel("New subject set name").fill("Owl photos");
  await dropManifest(page, "location,site\nhttps://example.org/owl-1.png,Barn\nhttps://example.org/owl-2.png,Wood\n");
  await expect(page.getByText("2 rows ready to import.")).toBeVisible();
  await page.getByRole("button", { name: "Import subjects" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Done: 2 subjects imported into the set “Owl photos”." })).toBeVisible({
    timeout: 30_000,
  });

  // A collaborator, invited by login, edits the drawing workflow.
  await page.getByRole("navigation", { name: "Project builder" }).getByRole("link", { name: "Collaborators" }).click();
  await page.getByLabel("Their login").fill(helper.login);
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByRole("status").filter({ hasText: "joined the team as collaborator" })).toBeVisible();
  const other = await browser.newContext({ baseURL: E2E_BASE_URL });
  const helperPage = await other.newPage();
  await signIn(helperPage, helper.login, helper.password);
  await helperPage.goto(`/lab/projects/${projectId}`);
  await helperPage.getByRole("link", { name: "Edit Mark owls" }).click();
  await helperPage.getByLabel("Task 1 instruction").fill("Draw a box around each owl");
  await helperPage.getByRole("button", { name: "Save workflow" }).click();
  await expect(helperPage.getByRole("status").filter({ hasText: "Saved" })).toContainText("Saved: version 1.2");
  await other.close();

  // The survey's decision engine: survey extractor, a stats reducer, retire at two barn owls.
  await page.getByRole("navigation", { name: "Project builder" }).getByRole("link", { name: "Workflows" }).click();
  await page.getByRole("link", { name: "Decision engine of Identify owls" }).click();
  await expect(page.getByTestId("engine-flow")).toHaveAttribute("data-ready", "true");
  await addOnCanvas(page, "engine-flow", /^Extractor/);
  await page.getByLabel("Extractor 1 type").selectOption("survey");
  await page.getByLabel("Extractor 1 key").fill("s");
  await addOnCanvas(page, "engine-flow", /^Reducer/);
  await page.getByLabel("Reducer 1 type").selectOption("stats");
  await page.getByLabel("Reducer 1 key").fill("n");
  await addOnCanvas(page, "engine-flow", /^Rule/);
  // A survey choice's count is no output a sentence names: written in the advanced blocks.
  await page.getByRole("radio", { name: "Advanced (blocks or JSON)" }).check();
  await page.getByLabel("Rule 1 condition: left: lookup").fill("n.BARNOWL");
  await page.getByLabel("Rule 1 condition: right: value").fill("2");
  await page.getByLabel("Rule 1, effect 1: reason").selectOption("consensus");

  // Dry run on pasted classifications: subject A (two barn owls) would retire, subject B (split) would not.
  // The project is private until it goes public below: the owner's own session reads its subjects.
  const subjects = await page.evaluate(async (pid) => {
    const res = await fetch(`/api/subjects?project_id=${pid}&sort=id`, { headers: { Accept: "application/vnd.api+json; version=1" } });
    return (await res.json()).subjects.map((s: { id: string }) => s.id) as string[];
  }, projectId);
  expect(subjects).toHaveLength(2);
  const survey = (value: string) => [{ task: "T0", value: [{ choice: value, answers: {}, filters: {} }] }];
  const pasted = [
    { id: 1, subject_id: Number(subjects[0]), user_id: 1, annotations: survey("BARNOWL") },
    { id: 2, subject_id: Number(subjects[0]), user_id: 2, annotations: survey("BARNOWL") },
    { id: 3, subject_id: Number(subjects[1]), user_id: 1, annotations: survey("BARNOWL") },
    { id: 4, subject_id: Number(subjects[1]), user_id: 2, annotations: survey("TAWNYOWL") },
  ];
  await page.getByRole("radio", { name: "Pasted classifications" }).check();
  await page.getByLabel(/^Classifications \(JSON array/).fill(JSON.stringify(pasted));
  await page.getByRole("button", { name: "Run the dry run" }).click();
  await expect(page.getByTestId(`dry-run-subject-${subjects[0]}`)).toContainText("would retire (consensus)");
  await expect(page.getByTestId(`dry-run-subject-${subjects[1]}`)).toContainText("would not retire");
  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

  // The project goes public; volunteers classify (anonymously) the survey.
  await page.getByRole("navigation", { name: "Project builder" }).getByRole("link", { name: "Project details" }).click();
  await page.getByRole("radio", { name: "Anyone with its link (public)" }).check();
  await expect(page.getByRole("status").filter({ hasText: "The project is public." })).toBeVisible();
  const identify = (
    await (await request.get(`/api/workflows?project_id=${projectId}`, { headers: { Accept: API_ACCEPT } })).json()
  ).workflows.find((w: { display_name: string }) => w.display_name === "Identify owls");
  for (const [subject, choice] of [
    [subjects[0], "BARNOWL"],
    [subjects[0], "BARNOWL"],
    [subjects[1], "TAWNYOWL"],
  ]) {
    await postClassification(request, {
      project: projectId,
      workflow: identify.id,
      version: identify.version,
      subjects: [subject],
      annotations: survey(choice),
    });
  }

  // Monitoring: the retirement with its reason; the export downloaded.
  await page.getByRole("navigation", { name: "Project builder" }).getByRole("link", { name: "Workflows" }).click();
  await page.getByRole("link", { name: "Monitor Identify owls" }).click();
  const retired = page.getByRole("region", { name: "Retired subjects" });
  await expect(retired.getByRole("row").nth(1)).toContainText(`${subjects[0]}consensus`, { timeout: 30_000 });
  await expect(retired.getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("region", { name: "Action log" }).getByRole("row").nth(1)).toContainText("completed");
  const exports = page.getByRole("region", { name: "Classifications export" });
  await exports.getByRole("button", { name: "Request a new export" }).click();
  const link = exports.getByRole("link", { name: "Download the classifications export (CSV)" });
  await expect(link).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: "test-results/screenshots/lab-monitor-complete-1280.png", fullPage: true });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const csv = fs
    .readFileSync((await download.path())!, "utf8")
    .trim()
    .split("\n");
  expect(csv[0]).toMatch(/^classification_id,/);
  expect(csv).toHaveLength(4);
  expect(csv.slice(1).every((line) => line.includes("Identify owls"))).toBe(true);
});
