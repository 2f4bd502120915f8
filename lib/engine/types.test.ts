import { describe, expect, it } from "vitest";
import { mergePreviousSubjectExtracts, previousSubjectIds } from "./reducers";
import { extract } from "./testing";
import { groupAnnotations } from "./types";

describe("groupAnnotations", () => {
  it.each([
    [
      "stored array",
      [
        { task: "T0", value: 1 },
        { task: "T1", value: "x" },
        { task: "T0", value: 2 },
      ],
      {
        T0: [
          { task: "T0", value: 1 },
          { task: "T0", value: 2 },
        ],
        T1: [{ task: "T1", value: "x" }],
      },
    ],
    ["already grouped", { T0: [{ task: "T0", value: 1 }] }, { T0: [{ task: "T0", value: 1 }] }],
    ["single annotation under a key", { T0: { task: "T0", value: 1 } }, { T0: [{ task: "T0", value: 1 }] }],
    ["entries without task dropped", [{ value: 1 }, null, { task: "T0", value: 2 }], { T0: [{ task: "T0", value: 2 }] }],
    ["empty", [], {}],
    ["null", null, {}],
  ])("%s", (_n, input, expected) => {
    expect(groupAnnotations(input)).toEqual(expected);
  });
});

describe("previousSubjectIds", () => {
  it.each([
    [{ "#previous_subject_ids": [1, 2] }, [1, 2]],
    [{ "#previous_subject_ids": ["3", 4, "x", -1, 4] }, [3, 4]],
    [{ "#previous_subject_ids": "[5, 6]" }, [5, 6]],
    [{ "#previous_subject_ids": "7,8" }, [7, 8]],
    [{ "#previous_subject_ids": "9" }, [9]],
    [{ "#previous_subject_ids": 10 }, [10]],
    [{ "#previous_subject_ids": "[broken" }, []],
    [{ "#previous_subject_ids": "" }, []],
    [{}, []],
    [null, []],
  ])("%j → %j", (metadata, expected) => {
    expect(previousSubjectIds(metadata)).toEqual(expected);
  });

  it("mergePreviousSubjectExtracts keeps each extract once", () => {
    const a = extract({ id: 1, classificationId: 1 });
    const b = extract({ id: 2, classificationId: 2, subjectId: 99 });
    expect(mergePreviousSubjectExtracts([a], [b, a]).map((e) => e.id)).toEqual([1, 2]);
  });
});
