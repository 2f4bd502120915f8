// What surrounds the task in the classifier: a classification that cannot be sent (5xx after the server
// stored it, offline, a network error across a page reload) is kept in the browser and resent with the
// same Idempotency-Key until stored, exactly once; a refused one (4xx) is shown and can be dismissed.
import { expect, test } from "@playwright/test";
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
  answer,
  currentSubject,
} from "../support";

const picture = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#334"/></svg>`;

test("classifications that cannot be sent are kept, resent and stored exactly once", async ({ page, request, context }) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Pending") });
  const w = await classifiableWorkflow(request, token, project.id, 6);
  await context.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/svg+xml", body: picture }));
  const keys: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/api/classifications")) keys.push(r.headers()["idempotency-key"]);
  });

  const volunteer = newUser("ui_pend");
  await registerUser(request, volunteer);
  await signIn(page, volunteer.login, volunteer.password);
  await page.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}`);
  const pending = page.getByTestId("pending");

  // 1. The server stores it but the answer is lost (503 to the browser): resent with the same key.
  let failNext = true;
  await page.route("**/api/classifications", async (route) => {
    if (route.request().method() !== "POST" || !failNext) return route.fallback();
    failNext = false;
    const res = await route.fetch();
    expect(res.status()).toBe(201);
    await route.fulfill({ status: 503, body: "{}" });
  });
  const a = await answer(page);
  await expect(pending).toBeHidden({ timeout: 15_000 }); // retried after the backoff

  // 2. Offline: kept, then sent when the browser is online again.
  await context.setOffline(true);
  const b = await answer(page);
  await expect(pending).toContainText("1 pending");
  await context.setOffline(false);
  await expect(pending).toBeHidden({ timeout: 15_000 });

  // 3. A network error, then a page reload while it is pending: it is still there and sent from there.
  await page.unroute("**/api/classifications");
  await page.route("**/api/classifications", (route) =>
    route.request().method() === "POST" ? route.abort("connectionfailed") : route.fallback(),
  );
  const c = await answer(page);
  await expect(pending).toContainText("1 pending");
  await page.reload();
  await expect(pending).toContainText("1 pending");
  await page.unroute("**/api/classifications");
  await page.getByRole("button", { name: "Retry now" }).click();
  await expect(pending).toBeHidden({ timeout: 15_000 });

  // 4. Refused (422): shown, not retried, dismissible.
  await page.route("**/api/classifications", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 422, contentType: "application/json", body: JSON.stringify({ errors: [{ message: "not accepted" }] }) })
      : route.fallback(),
  );
  await answer(page);
  const refused = page.getByRole("alert").filter({ hasText: "refused by the server: not accepted" });
  await expect(refused).toBeVisible();
  await expect(pending).toBeHidden();
  await refused.getByRole("button", { name: "Dismiss" }).click();
  await expect(refused).toBeHidden();
  await page.unroute("**/api/classifications");

  // Each stored exactly once, and every resend carried the key of its first attempt.
  const listed = await request.get(`/api/classifications/project?project_id=${project.id}&page_size=100`, { headers });
  expect(listed.status()).toBe(200);
  const subjects = (await listed.json()).classifications.map((c: { links: { subjects: string[] } }) => c.links.subjects[0]).sort();
  expect(subjects).toEqual([a, b, c].sort());
  expect(keys.every((k) => /^[0-9a-f-]{36}$/.test(k))).toBe(true);
  expect(new Set(keys).size).toBe(4); // a, b, c and the refused one
  expect(keys.length).toBeGreaterThan(4); // with resends
});

test("feedback on gold-standard subjects: a modal says whether the answer matched", async ({ page, request, context }) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Gold") });
  const tasks = {
    T0: {
      type: "single",
      question: "Is it a cat?",
      answers: [{ label: "Yes" }, { label: "No" }],
      feedback: {
        enabled: true,
        rules: [
          {
            id: "cat",
            strategy: "singleAnswerQuestion",
            successEnabled: true,
            defaultSuccessMessage: "Yes, a cat.",
            failureEnabled: true,
            defaultFailureMessage: "It was a cat.",
          },
        ],
      },
    },
  };
  const wf = await request.post("/api/workflows", {
    headers,
    data: { workflows: { display_name: "Cats", tasks, first_task: "T0", links: { project: project.id } } },
  });
  expect(wf.status(), await wf.text()).toBe(201);
  const workflow = (await wf.json()).workflows[0];
  const ids: string[] = [];
  for (const n of [1, 2]) {
    const s = await request.post("/api/subjects", {
      headers,
      data: {
        subjects: {
          locations: [{ "image/png": `https://example.org/gold${n}.png` }],
          metadata: { "#feedback_1_id": "cat", "#feedback_1_answer": "0" },
          links: { project: project.id },
        },
      },
    });
    expect(s.status(), await s.text()).toBe(201);
    ids.push((await s.json()).subjects[0].id);
  }
  const set = await request.post("/api/subject_sets", {
    headers,
    data: { subject_sets: { display_name: uniqueName("set"), links: { project: project.id, workflows: [workflow.id], subjects: ids } } },
  });
  expect(set.status(), await set.text()).toBe(201);
  await context.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/svg+xml", body: picture }));
  await page.goto(`/projects/${project.id}/classify?workflow=${workflow.id}`);

  await currentSubject(page);
  await page.getByLabel("Yes").check();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Well done" });
  await expect(dialog).toContainText("Your answer matched. Yes, a cat.");
  await expect(dialog.getByRole("button", { name: "Continue" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel("Yes")).toBeFocused(); // the next subject's first answer
  await expect(page.getByText("to favourite subjects and add them to collections.")).toBeVisible();
  // Anonymous: this session's count only.
  await expect(page.getByTestId("classified-counter")).toHaveText("You have classified 1 subject in this session.");

  await currentSubject(page);
  await page.getByLabel("No").check();
  await page.getByRole("button", { name: "Done" }).click();
  const wrong = page.getByRole("dialog", { name: "Feedback" });
  await expect(wrong).toContainText("Your answer did not match. It was a cat.");
  await wrong.getByRole("button", { name: "Continue" }).click();
  await expect(wrong).toBeHidden();
});

test("banners from the queue's selection state: retired and finished, already seen", async ({ page, request, context }) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Banners") });
  await context.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/svg+xml", body: picture }));

  // Every subject retired: the workflow is finished.
  const done = await classifiableWorkflow(request, token, project.id, 1);
  const retired = await request.post(`/api/workflows/${done.workflowId}/retired_subjects`, {
    headers,
    data: { subject_id: done.subjectIds[0], retirement_reason: "consensus" },
  });
  expect(retired.status(), await retired.text()).toBeLessThan(300);
  await page.goto(`/projects/${project.id}/classify?workflow=${done.workflowId}`);
  await currentSubject(page);
  const banners = page.getByTestId("subject-banners");
  await expect(banners).toContainText("This workflow is finished");

  // A volunteer who classified every subject sees them again, marked as seen.
  const seen = await classifiableWorkflow(request, token, project.id, 1);
  const volunteer = newUser("ui_seen");
  await registerUser(request, volunteer);
  const vToken = await accessToken(request, volunteer.login, volunteer.password);
  await postClassification(request, {
    project: project.id,
    workflow: seen.workflowId,
    version: seen.version,
    subjects: seen.subjectIds,
    token: vToken,
  });
  // The server counts it in the volunteer's project preference (folded within a second).
  await expect
    .poll(
      async () =>
        (
          await (
            await request.get(`/api/project_preferences?project_id=${project.id}`, {
              headers: { Accept: API_ACCEPT, Authorization: `Bearer ${vToken}` },
            })
          ).json()
        ).project_preferences?.[0]?.activity_count,
    )
    .toBe(1);
  await signIn(page, volunteer.login, volunteer.password);
  await page.goto(`/projects/${project.id}/classify?workflow=${seen.workflowId}`);
  await currentSubject(page);
  await expect(banners).toContainText("You have classified every subject in this workflow.");
  await expect(banners).toContainText("You have seen this subject before.");

  // Favourite the subject, read it back, then take it out again.
  const heart = page.getByRole("button", { name: "Favourite" });
  await expect(heart).toHaveAttribute("aria-pressed", "false");
  await heart.click();
  await expect(heart).toHaveAttribute("aria-pressed", "true");
  const favs = async () =>
    (
      await (
        await request.get(`/api/collections?favorite=true&project_ids=${project.id}&owner=${volunteer.login}`, {
          headers: { Accept: API_ACCEPT, Authorization: `Bearer ${vToken}` },
        })
      ).json()
    ).collections;
  expect((await favs()).map((c: { links: { subjects: string[] } }) => c.links.subjects)).toEqual([seen.subjectIds]);
  await heart.click();
  await expect(heart).toHaveAttribute("aria-pressed", "false");
  expect((await favs())[0].links.subjects).toEqual([]);

  // The counter: the project preference's activity_count (the classification above) plus this session's.
  const counter = page.getByTestId("classified-counter");
  await expect(counter).toHaveText("You have classified 1 subject in this project.");
  await page.getByLabel("Yes").check();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(counter).toHaveText("You have classified 2 subjects in this project.");
});

test("the field guide drawer: keyboard only, safe markdown, nothing without a guide", async ({ page, request, context }) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Guide") });
  const w = await classifiableWorkflow(request, token, project.id, 1);
  await context.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/svg+xml", body: picture }));
  await page.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}`);
  await currentSubject(page);
  await expect(page.getByRole("button", { name: "Field guide" })).toHaveCount(0);

  const g = await request.post("/api/field_guides", {
    headers,
    data: {
      field_guides: {
        language: "en",
        items: [
          { title: "Fox", content: "A **red** fox.\n\n<img src=x onerror=alert(1)>" },
          { title: "Owl", content: "Hoots at *night*." },
        ],
        links: { project: project.id },
      },
    },
  });
  expect(g.status(), await g.text()).toBe(201);
  await page.reload();
  await currentSubject(page);
  const open = page.getByRole("button", { name: "Field guide" });
  await open.focus();
  await page.keyboard.press("Enter");
  const drawer = page.getByRole("dialog", { name: "Field guide" });
  await expect(drawer).toBeVisible();
  await drawer.getByText("Fox", { exact: true }).click();
  await expect(drawer.locator("strong")).toHaveText("red");
  await expect(drawer).toContainText("<img src=x onerror=alert(1)>"); // shown as text, not markup
  await expect(drawer.locator("img")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(open).toBeFocused();
});

test("the tutorial: shown on the first visit, not the second, reopened from its button, read in its tab", async ({
  page,
  request,
  context,
}) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Tut") });
  const w = await classifiableWorkflow(request, token, project.id, 2);
  const t = await request.post("/api/tutorials", {
    headers,
    data: {
      tutorials: {
        language: "en",
        display_name: "How to classify",
        steps: [{ content: "Look at the **image**." }, { content: "Answer the question." }],
        links: { project: project.id, workflows: [w.workflowId] },
      },
    },
  });
  expect(t.status(), await t.text()).toBe(201);
  await context.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/svg+xml", body: picture }));
  await page.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}`);
  const tutorial = page.getByRole("dialog", { name: "How to classify" });
  await expect(tutorial).toBeVisible();
  await expect(tutorial).toContainText("Step 1 of 2");
  await page.keyboard.press("Enter"); // Next step has focus
  await expect(tutorial).toContainText("Answer the question.");
  await page.keyboard.press("Escape");
  await expect(tutorial).toBeHidden();

  await page.reload();
  await currentSubject(page);
  const button = page.getByRole("button", { name: "Tutorial" });
  await expect(button).toBeVisible();
  await expect(tutorial).toBeHidden();
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(tutorial).toContainText("Step 1 of 2");
  await page.keyboard.press("Escape");
  await expect(tutorial).toBeHidden();
  await expect(button).toBeFocused();

  // The task column's tabs: Task, and the tutorial read inline. The mouse, then the keyboard.
  const taskTab = page.getByRole("tab", { name: "Task" });
  const tutorialTab = page.getByRole("tab", { name: "Tutorial" });
  await expect(taskTab).toHaveAttribute("aria-selected", "true");
  await tutorialTab.click();
  const panel = page.getByRole("tabpanel", { name: "Tutorial" });
  await expect(panel).toContainText("Step 1 of 2");
  await expect(panel.locator("strong")).toHaveText("image");
  await expect(page.getByLabel("Yes")).toBeHidden();
  await page.keyboard.press("1"); // the shortcuts answer only on the Task tab
  await panel.getByRole("button", { name: "Next step" }).click();
  await expect(panel).toContainText("Answer the question.");
  await tutorialTab.focus();
  await page.keyboard.press("ArrowLeft");
  await expect(taskTab).toBeFocused();
  await expect(page.getByRole("tabpanel", { name: "Task" }).getByLabel("Yes")).not.toBeChecked();
  await page.keyboard.press("End");
  await expect(tutorialTab).toBeFocused();
  await expect(tutorialTab).toHaveAttribute("aria-selected", "true");
  await expect(panel).toContainText("Answer the question."); // where the volunteer was
  await panel.getByRole("button", { name: "Back to the task" }).click();
  await expect(taskTab).toBeFocused();
  await expect(taskTab).toHaveAttribute("aria-selected", "true");
  // The shortcuts answer again; after Done the next subject's first answer has the focus, on the Task tab.
  const shown = await currentSubject(page);
  await page.keyboard.press("1");
  await expect(page.getByLabel("Yes")).toBeChecked();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("img", { name: new RegExp(`^Subject ${shown},`) })).toHaveCount(0);
  await expect(page.getByLabel("Yes")).toBeFocused();
  await expect(taskTab).toHaveAttribute("aria-selected", "true");
});

test("signed in: the tutorial remembered in the project preference, mini-course lessons, add to a collection, field guide icons", async ({
  page,
  request,
  context,
}) => {
  const token = await accessToken(request);
  const headers = { Accept: API_ACCEPT, Authorization: `Bearer ${token}` };
  const project = await createProject(request, token, { display_name: uniqueName("Course") });
  const w = await classifiableWorkflow(request, token, project.id, 7);
  const post = async (path: string, data: object) => {
    const res = await request.post(path, { headers, data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as Record<string, { id: string }[]>;
  };
  const tutorial = (
    await post("/api/tutorials", {
      tutorials: {
        language: "en",
        display_name: "Start here",
        steps: [{ content: "Look." }],
        links: { project: project.id, workflows: [w.workflowId] },
      },
    })
  ).tutorials[0];
  await post("/api/tutorials", {
    tutorials: {
      language: "en",
      kind: "mini-course",
      display_name: "Bird school",
      steps: [{ content: "Lesson one: beaks." }, { content: "Lesson two: wings." }],
      links: { project: project.id, workflows: [w.workflowId] },
    },
  });
  const guide = (
    await post("/api/field_guides", {
      field_guides: { language: "en", items: [{ title: "Owl", content: "Hoots." }], links: { project: project.id } },
    })
  ).field_guides[0];
  const icon = (
    await post(`/api/field_guides/${guide.id}/attached_images`, {
      media: { content_type: "image/png", src: "https://example.org/owl.png", external_link: true },
    })
  ).media[0];
  const etag = (await request.get(`/api/field_guides/${guide.id}`, { headers })).headers().etag;
  expect(
    (
      await request.put(`/api/field_guides/${guide.id}`, {
        headers: { ...headers, "If-Match": etag },
        data: { field_guides: { items: [{ title: "Owl", content: "Hoots.", icon: icon.id }] } },
      })
    ).status(),
  ).toBe(200);
  await context.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/svg+xml", body: picture }));

  const volunteer = newUser("ui_course");
  await registerUser(request, volunteer);
  const vToken = await accessToken(request, volunteer.login, volunteer.password);
  const mine = { Accept: API_ACCEPT, Authorization: `Bearer ${vToken}` };
  await signIn(page, volunteer.login, volunteer.password);
  await page.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}`);
  const dialog = page.getByRole("dialog", { name: "Start here" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/project_preferences?project_id=${project.id}`, { headers: mine })).json()).project_preferences?.[0]
          ?.preferences?.tutorials_completed_at?.[tutorial.id],
    )
    .toBeTruthy();
  // Another browser (no localStorage) knows it from the preference: no tutorial shown.
  const other = await context.browser()!.newContext();
  const page2 = await other.newPage();
  await page2.route("https://example.org/**", (route) => route.fulfill({ contentType: "image/svg+xml", body: picture }));
  await signIn(page2, volunteer.login, volunteer.password);
  await page2.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}`);
  await currentSubject(page2);
  await expect(page2.getByRole("button", { name: "Tutorial" })).toBeVisible();
  await expect(page2.getByRole("dialog", { name: "Start here" })).toBeHidden();
  await other.close();

  // Field guide icons are the guide's attached images.
  await page.getByRole("button", { name: "Field guide" }).click();
  await expect(page.getByTestId("field-guide-icon")).toHaveAttribute("src", "https://example.org/owl.png");
  await page.keyboard.press("Escape");

  // Add the subject to a new collection, then to it again from the list (already there).
  const subject = await currentSubject(page);
  await page.getByRole("button", { name: "Add to collection" }).click();
  const collect = page.getByRole("dialog", { name: `Add subject ${subject} to a collection` });
  await collect.getByLabel("New collection").fill("My owls");
  await collect.getByRole("button", { name: "Create with this subject" }).click();
  await expect(collect.getByRole("status")).toHaveText("Created “My owls” with this subject.");
  await expect(collect.getByRole("button", { name: "Added to My owls" })).toBeDisabled();
  await collect.getByRole("button", { name: "Close" }).click();
  const owls = (await (await request.get(`/api/collections?owner=${volunteer.login}&display_name=My owls`, { headers: mine })).json())
    .collections;
  expect(owls.map((c: { links: { subjects: string[] } }) => c.links.subjects)).toEqual([[subject]]);

  // The mini-course offers its first lesson after the fifth classification; Got it moves to the next.
  for (let i = 0; i < 5; i++) await answer(page);
  const prompt = page.getByTestId("mini-course-prompt");
  await expect(prompt).toContainText("Bird school: lesson 1 of 2 is ready.");
  await prompt.getByRole("button", { name: "Show me" }).click();
  const lesson = page.getByRole("dialog", { name: "Bird school: lesson 1 of 2" });
  await expect(lesson).toContainText("Lesson one: beaks.");
  await lesson.getByRole("button", { name: "Got it" }).click();
  await expect(prompt).toHaveCount(0);
  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/project_preferences?project_id=${project.id}`, { headers: mine })).json()).project_preferences?.[0]
          ?.preferences?.minicourses?.slide_to_start,
    )
    .toEqual(
      expect.objectContaining({
        [String(
          (await (await request.get(`/api/tutorials?workflow_id=${w.workflowId}&kind=mini-course`, { headers })).json()).tutorials[0].id,
        )]: 1,
      }),
    );
});
