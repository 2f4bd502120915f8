// The lab's subjects: a CSV manifest dropped on the page is checked row by row before anything is sent
// (a bad row is named with its line), a good one is imported in the background with its progress, and the
// set's subjects are browsed with their retirement, retired and unretired by hand.
import { expect, test, type Page } from "@playwright/test";
import { accessToken, classifiableWorkflow, createProject, newUser, registerUser, signIn, uniqueName } from "../support";

async function drop(page: Page, name: string, csv: string) {
  const dataTransfer = await page.evaluateHandle(
    ([n, text]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], n, { type: "text/csv" }));
      return dt;
    },
    [name, csv] as const,
  );
  await page.getByTestId("manifest-drop-zone").dispatchEvent("drop", { dataTransfer });
}

test("a researcher imports a manifest by drag and drop and retires a subject by hand", async ({ page, request }) => {
  const owner = newUser("lab_subj");
  await registerUser(request, owner);
  const token = await accessToken(request, owner.login, owner.password);
  const project = await createProject(request, token, { display_name: uniqueName("Manifests") });
  await classifiableWorkflow(request, token, project.id, 1);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, owner.login, owner.password);
  await page.goto(`/lab/projects/${project.id}`);
  await page.getByRole("navigation", { name: "Project builder" }).getByRole("link", { name: "Subjects" }).click();
  await expect(page.getByRole("heading", { name: "Subjects", level: 1 })).toBeVisible();

  // A bad manifest: each bad row named, nothing sent.
  await page.getByLabel("Into subject set").selectOption({ label: "A new subject set…" });
  await page.getByLabel("New subject set name").fill("From the manifest");
  await drop(page, "bad.csv", "location,site\nhttps://example.org/a.png,North\nnot-a-url.png,South\n,East\n");
  const problems = page.getByRole("alert").filter({ hasText: "problems to fix" });
  await expect(problems).toContainText("2 problems to fix before importing");
  await expect(problems.getByRole("row", { name: /^3 / })).toContainText("is not an http(s) URL");
  await expect(problems.getByRole("row", { name: /^4 / })).toContainText("no location");
  await expect(page.getByRole("button", { name: "Import subjects" })).toBeDisabled();

  // A good one, by the file chooser this time: imported with its progress.
  const csv = `location,site,external_id\n${["a", "b", "c"].map((n) => `https://example.org/${n}.png,Site ${n},ext-${n}`).join("\n")}\n`;
  await drop(page, "good.csv", csv);
  await expect(page.getByText("3 rows ready to import.")).toBeVisible();
  await page.getByRole("button", { name: "Import subjects" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Done: 3 subjects imported into the set “From the manifest”." })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText("From the manifest (3)")).toBeVisible();

  // Browsed, with retirement by hand.
  await page.getByRole("combobox", { name: "Subject set", exact: true }).selectOption({ label: "From the manifest" });
  const rows = page.getByRole("table").filter({ hasText: "3 subjects, page 1 of 1" }).getByRole("row");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText("Site a");
  const first = (await rows.nth(1).getByRole("cell").first().textContent())!;
  await expect(page.getByTestId(`subject-state-${first}`)).toHaveText("active");
  await page.getByRole("button", { name: `Retire subject ${first}` }).click();
  await expect(page.getByTestId(`subject-state-${first}`)).toHaveText("retired (other)");
  await page.screenshot({ path: "test-results/screenshots/lab-subjects-1280.png", fullPage: true });
  await page.getByRole("button", { name: `Unretire subject ${first}` }).click();
  await expect(page.getByTestId(`subject-state-${first}`)).toHaveText("active");
});
