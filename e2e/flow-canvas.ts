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
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}
