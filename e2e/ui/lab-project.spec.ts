// Building a project in the lab, from nothing to a classification: a new project, a workflow with a
// branching question and a text task, subjects uploaded from files (stored and served by the app), and a
// volunteer (the owner here) classifying one of them.
import { expect, test } from "@playwright/test";
import { addOnCanvas } from "../flow-canvas";
import { accessToken, API_ACCEPT, newUser, registerUser, signIn, uniqueName } from "../support";

const svg = (label: string) =>
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#642"/>' +
      `<text x="30" y="160" font-size="40" fill="white">${label}</text></svg>`,
  );

test("a researcher builds a project in the lab and it can be classified", async ({ page, request }) => {
  const researcher = newUser("ui_build");
  await registerUser(request, researcher);
  await signIn(page, researcher.login, researcher.password);
  await page.goto("/");
  await page.getByRole("link", { name: "Lab", exact: true }).click();
  await expect(page.getByText("You are not building any project yet.")).toBeVisible();

  const name = uniqueName("Cats");
  await page.getByLabel("Project name").fill(name);
  await page.getByLabel("Short description").fill("Cats in gardens");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/lab\/projects\/\d+$/);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  const projectId = page.url().split("/").pop()!;

  // A workflow: T0 "Is there a cat?" Yes → T1 (text), No → the end.
  await page.getByLabel("Workflow name").fill("Find cats");
  await page.getByLabel("Retire after this many classifications (empty: never)").fill("3");
  await page.getByLabel("Task 1 question").fill("Is there a cat?");
  await page.getByLabel("Task 1 answer 1", { exact: true }).fill("Yes");
  await page.getByLabel("Task 1 answer 2", { exact: true }).fill("No");
  await addOnCanvas(page, "branching-graph", "Task: Question, one answer");
  await page.getByLabel("Task 2 type").selectOption("text");
  await page.getByLabel("Task 2 instruction").fill("What is its name?");
  // Back to the first task by its words; its answer leads to the second, picked by its words too.
  await page.getByLabel("Task to edit").selectOption({ label: "Task 1: Is there a cat?" });
  await page.getByLabel("Task 1 answer 1 (Yes) leads to").selectOption({ label: "Task 2: What is its name?" });
  await page.getByRole("button", { name: "Create workflow" }).click();
  // Its editor opens, with the tasks built.
  await expect(page.getByRole("status").filter({ hasText: "Created “Find cats”" })).toBeVisible();

  // Edited: a wording change moves the minor version, a new answer the major one.
  await expect(page.getByLabel("Task 1 question")).toHaveValue("Is there a cat?");
  await page.getByLabel("Task 1 question").fill("Is there a cat here?");
  await page.getByRole("button", { name: "Save workflow" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText("Saved: version 1.2.");
  await page.getByRole("button", { name: "Add an answer to Task 1" }).click();
  await page.getByLabel("Task 1 answer 3", { exact: true }).fill("Not sure");
  await page.getByRole("button", { name: "Save workflow" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toHaveText("Saved: version 2.2.");
  await page.getByRole("link", { name }).click();

  // Subjects from two files, linked to the new workflow.
  await page.getByRole("link", { name: "Add and browse subjects" }).click();
  await page.getByLabel("Subject set name", { exact: true }).fill("Garden photos");
  await page.getByLabel(/^Files/).setInputFiles([
    { name: "tom.svg", mimeType: "image/svg+xml", buffer: svg("Tom") },
    { name: "empty.svg", mimeType: "image/svg+xml", buffer: svg("Lawn") },
  ]);
  await expect(page.getByRole("checkbox", { name: "Find cats", exact: true })).toBeChecked();
  await page.getByRole("button", { name: "Upload 2 files" }).click();
  await expect(page.getByRole("status").filter({ hasText: "created with 2 subjects" })).toBeVisible();
  await expect(page.getByText("Garden photos (2)")).toBeVisible();

  // What the API now says.
  const token = await accessToken(request, researcher.login, researcher.password);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const workflows = (await (await request.get(`/api/workflows?project_id=${projectId}`, { headers })).json()).workflows;
  expect(workflows).toHaveLength(1);
  expect(workflows[0]).toMatchObject({
    display_name: "Find cats",
    version: "2.2",
    first_task: "T0",
    retirement: { criteria: "classification_count", options: { count: 3 } },
  });
  expect(workflows[0].tasks).toEqual({
    T0: {
      type: "single",
      question: "Is there a cat here?",
      answers: [{ label: "Yes", next: "T1" }, { label: "No" }, { label: "Not sure" }],
    },
    T1: { type: "text", instruction: "What is its name?" },
  });
  expect(workflows[0].links.subject_sets).toHaveLength(1);

  // Classified from the project's page: the uploaded image is served by the app.
  await page.goto(`/projects/${projectId}`);
  await page.getByRole("link", { name: "Classify: Find cats" }).click();
  const image = page.getByRole("img", { name: /^Subject \d+, image 1 of 1$/ });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(400);
  await page.getByLabel("Yes").check();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("What is its name?").fill("Tom");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("saved-count")).toHaveText("Classification saved. 1 classified in this session.");
  const listed = (await (await request.get(`/api/classifications/project?project_id=${projectId}`, { headers })).json()).classifications;
  expect(listed.map((c: { annotations: unknown }) => c.annotations)).toEqual([
    [
      { task: "T0", value: 0 },
      { task: "T1", value: "Tom" },
    ],
  ]);
});
