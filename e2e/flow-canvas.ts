// The lab's React Flow canvases (the workflow's branching graph, the decision engine's flow) as a person
// uses them: handles dragged with the mouse, and the check that the view fits every node.
import { expect, type Locator, type Page } from "@playwright/test";

/** Every node of a React Flow canvas is inside the canvas's box (the view fits, without a reload). */
export async function expectInside(page: Page, canvas: string) {
  const nodes = page.getByTestId(canvas).locator(".react-flow__node");
  await expect(nodes.first()).toBeVisible();
  await expect
    .poll(async () => {
      const box = (await page.getByTestId(canvas).boundingBox())!;
      const boxes = await nodes.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
      return boxes.every(
        (b) => b.left >= box.x - 1 && b.top >= box.y - 1 && b.right <= box.x + box.width + 1 && b.bottom <= box.y + box.height + 1,
      );
    })
    .toBe(true);
}

/** Drags from one React Flow handle to another with the mouse, as a person does. */
export async function dragHandle(page: Page, from: Locator, to: Locator) {
  await from.scrollIntoViewIfNeeded();
  // The canvas fits itself to its nodes after every change (an animated viewport): drag only once both
  // handles have stopped moving, or the drop lands where the target was a moment before.
  const boxes = async () => [(await from.boundingBox())!, (await to.boundingBox())!];
  let [a, b] = await boxes();
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(50);
    const [a2, b2] = await boxes();
    const still = a2.x === a.x && a2.y === a.y && b2.x === b.x && b2.y === b.y;
    [a, b] = [a2, b2];
    if (still) break;
  }
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** Adds something with a canvas's "+ Add" menu (`canvas`: the canvas's test id), by the menu item's name. */
export async function addOnCanvas(page: Page, canvas: string, item: string | RegExp) {
  const menu = page.getByTestId(canvas).locator("xpath=..");
  await menu.getByRole("button", { name: "Add", exact: true }).click();
  await menu.getByRole("list", { name: "Add" }).getByRole("button", { name: item }).click();
}
