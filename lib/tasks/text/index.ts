// Free text: the annotation's value is the text as typed; a required one needs some.
import type { TaskTypeDef } from "../types";

export const textTask: TaskTypeDef = {
  label: "Free text",
  template: () => ({ type: "text", instruction: "" }),
  emptyValue: () => "",
  isAnswered: (task, value) => !(task as { required?: boolean }).required || (typeof value === "string" && value.trim() !== ""),
  // An empty text is a blank classification: the blank extractor says whether it was left empty.
  extractor: { type: "blank" },
};
