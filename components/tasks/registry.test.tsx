import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TaskView } from "@/components/classifier/task-view";
import { TaskEditor } from "@/components/lab/task-editors/task-editor";
import { taskTemplate } from "@/lib/lab/task-editing";
import { TASK_TYPE_NAMES, taskTypes } from "@/lib/tasks/registry";
import { classifierViews } from "./classifier-views";
import { labEditors } from "./lab-editors";

// Each task type's views come from its folder through the registries: the lab edits every type the registry
// has, the classifier shows every type a volunteer answers (a combo shows its members instead), and a type
// outside the registry is kept as JSON in the lab and named as unsupported to the volunteer.

const editor = (task: Record<string, unknown>) =>
  renderToStaticMarkup(
    createElement(TaskEditor, { taskName: "T0", task, onChange: () => {}, others: [{ value: "T1", label: "Task 2" }], shortcuts: [] }),
  );
const view = (task: Record<string, unknown>, value: unknown = null) =>
  renderToStaticMarkup(createElement(TaskView, { taskKey: "T0", task: task as never, value: value as never, onChange: () => {} }));

describe("the components' task registries", () => {
  it("the lab has an editor for every type, the classifier a view for every type but the combo", () => {
    expect(Object.keys(labEditors)).toEqual(TASK_TYPE_NAMES);
    expect(Object.keys(classifierViews)).toEqual(TASK_TYPE_NAMES.filter((t) => !taskTypes[t].members));
  });

  it.each(TASK_TYPE_NAMES.map((t) => [t]))("a new %s task opens in its own editor, not as JSON", (type) => {
    const html = editor(taskTemplate(type));
    expect(html).not.toContain("definition (JSON)");
    expect(html).toMatch(/<label|<fieldset/);
  });

  it.each([
    ["single", /<legend[^>]*><span class="markdown-inline">Is it round\?<\/span><\/legend>.*type="radio" name="task-T0"/],
    ["multiple", /<legend[^>]*><span class="markdown-inline">Is it round\?<\/span><\/legend>.*type="checkbox" name="task-T0"/],
  ])("a %s question is its answers under its question, in one named group", (type, pattern) => {
    expect(view({ type, question: "Is it round?", answers: [{ label: "Yes" }, { label: "No" }] })).toMatch(pattern);
  });

  it("a text task's box is labelled by its instruction", () => {
    expect(view({ type: "text", instruction: "Describe it", required: true }, "")).toMatch(
      /<label for="task-T0"[^>]*><span class="markdown-inline">Describe it<\/span> \(required\)<\/label><textarea id="task-T0"/,
    );
  });

  it("question, answers and help are Markdown, rendered as the established classifier renders them", () => {
    const html = view({
      type: "single",
      question: "Is it **half hidden**?",
      answers: [{ label: "_Yes_" }, { label: "No" }],
      help: "Look **closely**.\n\n<script>alert(1)</script>",
    });
    expect(html).toMatch(/<legend[^>]*><span class="markdown-inline">Is it <strong>half hidden<\/strong>\?<\/span><\/legend>/);
    expect(html).toContain('<span class="markdown-inline"><em>Yes</em></span>');
    expect(html).toMatch(/<p>Look <strong>closely<\/strong>.<\/p>\n<p>&lt;script>alert\(1\)&lt;\/script><\/p>/);
    expect(html).not.toContain("<script");
  });

  it.each([["dropdown"], ["combo"]])("a %s task is named as not supported to the volunteer, and kept as JSON in the lab", (type) => {
    expect(view({ type })).toContain(`This task (${type}) is not supported by the web classifier yet.`);
    if (type === "dropdown") expect(editor({ type })).toContain("T0 definition (JSON)");
  });
});
