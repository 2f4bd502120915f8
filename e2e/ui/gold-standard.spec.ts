// Gold standard mode: the project's owner switches it on above the classifier and classifies; the
// classification is stored as gold standard and listed on the lab's workflow page. A volunteer has no
// such switch.
import { expect, test } from "@playwright/test";
import { accessToken, API_ACCEPT, classifiableWorkflow, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

test("an owner classifies in gold standard mode and sees the gold standard in the lab", async ({ page, request, browser }) => {
  const owner = newUser("gold_owner");
  const volunteer = newUser("gold_vol");
  await registerUser(request, owner);
  await registerUser(request, volunteer);
  const token = await accessToken(request, owner.login, owner.password);
  const project = await createProject(request, token, { display_name: uniqueName("Gold"), private: false });
  const w = await classifiableWorkflow(request, token, project.id, 1);

  await signIn(page, owner.login, owner.password);
  await page.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}`);
  await page.getByRole("checkbox", { name: /Gold standard mode/ }).check();
  await page.getByRole("radio", { name: "Yes" }).check();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("saved-count")).toContainText("Classification saved");

  const gold = await request.get(`/api/classifications/gold_standard?workflow_id=${w.workflowId}`, {
    headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` },
  });
  const listed = (await gold.json()).classifications;
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({ gold_standard: true, annotations: [{ task: "T0", value: 0 }], links: { subjects: [w.subjectIds[0]] } });

  await page.goto(`/lab/projects/${project.id}/workflows/${w.workflowId}`);
  const section = page.getByRole("region", { name: "Gold standard" });
  await expect(section.getByText("1 gold standard classifications")).toBeVisible();
  await expect(section.getByRole("row").nth(1).getByRole("cell").nth(1)).toHaveText(w.subjectIds[0]);

  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const volunteerPage = await other.newPage();
  await signIn(volunteerPage, volunteer.login, volunteer.password);
  await volunteerPage.goto(`/projects/${project.id}/classify?workflow=${w.workflowId}`);
  await expect(volunteerPage.getByRole("radio", { name: "Yes" })).toBeVisible();
  await expect(volunteerPage.getByRole("checkbox", { name: /Gold standard mode/ })).toHaveCount(0);
  await other.close();
});
