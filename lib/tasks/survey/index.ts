// Survey: identify what is in the subject among the task's choices, narrowed by characteristics, answering
// questions about each identification. The annotation's value is the identifications, none for "nothing here".
import type { TaskTypeDef } from "../types";

export const surveyTask: TaskTypeDef = {
  label: "Survey (identify species)",
  template: () => ({
    type: "survey",
    instruction: "",
    choices: {},
    choicesOrder: [],
    characteristics: {},
    characteristicsOrder: [],
    questions: {},
    questionsOrder: [],
    images: {},
  }),
  emptyValue: () => [],
  extractor: { type: "survey" },
};
