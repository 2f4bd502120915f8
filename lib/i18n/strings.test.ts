import { describe, expect, it } from "vitest";
import { applyStrings, recordStrings } from "./strings";

const tasks = {
  T0: { type: "single", question: "Is there a bird?", help: "Look closely", answers: [{ label: "Yes", next: "T1" }, { label: "No" }] },
  T1: {
    type: "drawing",
    instruction: "Mark each bird",
    tools: [{ type: "point", label: "Bird", color: "#ff0000", details: [{ type: "text", instruction: "Species?" }] }],
  },
  T2: {
    type: "survey",
    choices: { FOX: { label: "Fox", description: "Red and bushy", images: ["fox.png"] } },
    questions: { HOW: { label: "How many?", answers: { ONE: { label: "1" } } } },
  },
};

describe("recordStrings", () => {
  it.each([
    [
      "project",
      { display_name: "Birds", description: "Count birds", introduction: "", slug: "a/birds", private: false },
      { display_name: "Birds", description: "Count birds" },
    ],
    ["project_page", { title: "Research", content: "Why", url_key: "science_case" }, { title: "Research", content: "Why" }],
    [
      "tutorial",
      { display_name: "Intro", steps: [{ content: "Step one", media: "3" }] },
      { display_name: "Intro", "steps.0.content": "Step one" },
    ],
    ["field_guide", { items: [{ title: "Fox", content: "Red", icon: "7" }] }, { "items.0.title": "Fox", "items.0.content": "Red" }],
  ] as const)("%s", (type, record, expected) => {
    expect(recordStrings(type, record as Record<string, unknown>)).toEqual(expected);
  });

  it("takes every text a volunteer reads from a workflow's tasks, and nothing else", () => {
    expect(recordStrings("workflow", { display_name: "Find birds", tasks })).toEqual({
      display_name: "Find birds",
      "tasks.T0.question": "Is there a bird?",
      "tasks.T0.help": "Look closely",
      "tasks.T0.answers.0.label": "Yes",
      "tasks.T0.answers.1.label": "No",
      "tasks.T1.instruction": "Mark each bird",
      "tasks.T1.tools.0.label": "Bird",
      "tasks.T1.tools.0.details.0.instruction": "Species?",
      "tasks.T2.choices.FOX.label": "Fox",
      "tasks.T2.choices.FOX.description": "Red and bushy",
      "tasks.T2.questions.HOW.label": "How many?",
      "tasks.T2.questions.HOW.answers.ONE.label": "1",
    });
  });
});

describe("applyStrings", () => {
  it("puts translated strings where the record has them and leaves everything else", () => {
    const fr = applyStrings({ display_name: "Find birds", tasks } as Record<string, unknown>, {
      display_name: "Trouver les oiseaux",
      "tasks.T0.question": "Y a-t-il un oiseau ?",
      "tasks.T0.answers.0.label": "Oui",
      "tasks.T1.tools.0.label": "Oiseau",
      "tasks.T2.choices.FOX.label": "Renard",
      "tasks.T9.question": "no such task",
      "tasks.T0.answers.0.next": "T2", // not a string there to replace: next stays
      "tasks.T0.answers.5.label": "beyond the answers",
      "tasks.T0.type": "multiple",
    });
    const t = fr.tasks as typeof tasks;
    expect(fr.display_name).toBe("Trouver les oiseaux");
    expect(t.T0.question).toBe("Y a-t-il un oiseau ?");
    expect(t.T0.answers).toEqual([{ label: "Oui", next: "T1" }, { label: "No" }]);
    expect(t.T1.tools[0]).toMatchObject({ label: "Oiseau", color: "#ff0000" });
    expect(t.T2.choices.FOX.label).toBe("Renard");
    expect(Object.keys(fr.tasks as object)).toEqual(["T0", "T1", "T2"]);
    expect(tasks.T0.question).toBe("Is there a bird?"); // the original is untouched
  });

  it("follows own keys only: paths through __proto__ or constructor change nothing anywhere", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.label = "shared"; // a string the prototype would offer, were it reached
    try {
      const fr = applyStrings({ display_name: "Find birds", tasks } as Record<string, unknown>, {
        "__proto__.label": "x",
        "tasks.__proto__.label": "x",
        "tasks.T0.__proto__.label": "x",
        "tasks.constructor.label": "x",
        "tasks.T0.answers.constructor.label": "x",
        "tasks.T0.label": "x",
      });
      expect(proto.label).toBe("shared");
      expect(Object.hasOwn(fr.tasks as object, "constructor")).toBe(false);
      expect((fr.tasks as typeof tasks).T0).toEqual(tasks.T0);
    } finally {
      delete proto.label;
    }
  });
});
