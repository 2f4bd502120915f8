/**
 * The current task's first answer, else its heading: where the focus goes when the element that had it is
 * gone (the previous subject's) or was nothing (a dialog that opened by itself on the page's first load).
 */
export const currentTaskControl = (): HTMLElement | null =>
  document.querySelector<HTMLElement>("#task-form :is(input, textarea):not([disabled])") ?? document.getElementById("task-heading");
