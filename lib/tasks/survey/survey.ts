// The survey's pure logic for the classifier: its choices in order, narrowed by characteristics and a
// search; the questions asked about an identification; whether one is complete; what tells choices apart.
import type { SurveyItem, SurveyTask } from "../types";

const ordered = (keys: string[], order?: string[]) => [
  ...(order ?? []).filter((k) => keys.includes(k)),
  ...keys.filter((k) => !(order ?? []).includes(k)),
];

/** The survey's choices in its order, narrowed by characteristic values (`{pattern: "stripes"}`) and a search text. */
export function surveyChoices(task: SurveyTask, filters: Record<string, string>, search = ""): string[] {
  const needle = search.trim().toLowerCase();
  return ordered(Object.keys(task.choices ?? {}), task.choicesOrder).filter((id) => {
    const choice = task.choices[id];
    if (needle && !choice.label.toLowerCase().includes(needle)) return false;
    return Object.entries(filters).every(
      ([characteristic, value]) => !value || (choice.characteristics?.[characteristic] ?? []).includes(value),
    );
  });
}

/** The characteristics in the survey's order, each with its values in order. */
export function surveyCharacteristics(task: SurveyTask): { id: string; label: string; values: { id: string; label: string }[] }[] {
  const all = task.characteristics ?? {};
  return ordered(Object.keys(all), task.characteristicsOrder).map((id) => ({
    id,
    label: all[id].label,
    values: ordered(Object.keys(all[id].values ?? {}), all[id].valuesOrder).map((v) => ({ id: v, label: all[id].values[v].label })),
  }));
}

/** The questions asked about an identification of this choice (none for a choice marked noQuestions). */
export function surveyQuestions(
  task: SurveyTask,
  choiceId: string,
): { id: string; label: string; multiple: boolean; required: boolean; answers: { id: string; label: string }[] }[] {
  if (task.choices?.[choiceId]?.noQuestions) return [];
  const all = task.questions ?? {};
  return ordered(Object.keys(all), task.questionsOrder).map((id) => ({
    id,
    label: all[id].label,
    multiple: !!all[id].multiple,
    required: !!all[id].required,
    answers: ordered(Object.keys(all[id].answers ?? {}), all[id].answersOrder).map((a) => ({ id: a, label: all[id].answers[a].label })),
  }));
}

/** Whether an identification answers every required question of its choice. */
export function surveyItemComplete(task: SurveyTask, item: SurveyItem): boolean {
  return surveyQuestions(task, item.choice).every((q) => {
    if (!q.required) return true;
    const a = item.answers[q.id];
    return Array.isArray(a) ? a.length > 0 : typeof a === "string" && a !== "";
  });
}

/** What helps a volunteer be sure of a choice: its description, its images' URLs, and the choices it is often confused with and how to tell them apart. */
export function surveyChoiceDetails(
  task: SurveyTask,
  id: string,
): { description: string; images: string[]; confusions: { id: string; label: string; text: string }[] } {
  const choice = task.choices[id];
  if (!choice) return { description: "", images: [], confusions: [] };
  const confusions = choice.confusions ?? {};
  return {
    description: choice.description ?? "",
    images: (choice.images ?? []).map((name) => task.images?.[name] ?? name).filter((u) => /^https?:\/\/|^\//.test(u)),
    confusions: ordered(Object.keys(confusions), choice.confusionsOrder)
      .filter((other) => task.choices[other] && confusions[other]?.trim())
      .map((other) => ({ id: other, label: task.choices[other].label, text: confusions[other] })),
  };
}
