// The lab's bookkeeping of a survey task: ids made from labels, the orders beside the maps, a removed
// characteristic leaving the choices, a removed choice leaving the others' confusions, images by file name.
import type { TaskDef } from "../types";

/** An id for a survey entry from its label (upper-case letters and digits, as the established editor makes them), unique among `taken`. */
export function surveyId(label: string, taken: string[]): string {
  const base =
    label
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, "")
      .slice(0, 20) || "ITEM";
  let id = base;
  for (let i = 2; taken.includes(id); i++) id = `${base}${i}`;
  return id;
}

type SurveyPart = "choices" | "characteristics" | "questions";
const ORDER: Record<SurveyPart, string> = { choices: "choicesOrder", characteristics: "characteristicsOrder", questions: "questionsOrder" };

/** The entries of a survey part in the survey's order. */
export function surveyEntries(task: TaskDef, part: SurveyPart): [string, TaskDef][] {
  const all: Record<string, TaskDef> = task[part] ?? {};
  const order: string[] = task[ORDER[part]] ?? [];
  const keys = [...order.filter((k) => k in all), ...Object.keys(all).filter((k) => !order.includes(k))];
  return keys.map((k) => [k, all[k]]);
}

/** Adds an entry (choice, characteristic or question) with an id made from its label; returns the task and the id. */
export function addSurveyEntry(task: TaskDef, part: SurveyPart, entry: TaskDef): { task: TaskDef; id: string } {
  const id = surveyId(String(entry.label ?? ""), Object.keys(task[part] ?? {}));
  return {
    id,
    task: { ...task, [part]: { ...(task[part] ?? {}), [id]: entry }, [ORDER[part]]: [...surveyEntries(task, part).map(([k]) => k), id] },
  };
}

export function updateSurveyEntry(task: TaskDef, part: SurveyPart, id: string, entry: TaskDef): TaskDef {
  return { ...task, [part]: { ...(task[part] ?? {}), [id]: entry } };
}

/** Removes an entry; a characteristic leaves the choices' values, a choice leaves the others' confusions. */
export function removeSurveyEntry(task: TaskDef, part: SurveyPart, id: string): TaskDef {
  const rest = Object.fromEntries(Object.entries(task[part] ?? {}).filter(([k]) => k !== id));
  let out: TaskDef = {
    ...task,
    [part]: rest,
    [ORDER[part]]: surveyEntries(task, part)
      .map(([k]) => k)
      .filter((k) => k !== id),
  };
  if (part === "characteristics" || part === "choices") {
    const choices = Object.fromEntries(
      Object.entries(out.choices ?? {}).map(([k, c]) => {
        const choice: TaskDef = { ...(c as TaskDef) };
        if (part === "characteristics" && choice.characteristics)
          choice.characteristics = Object.fromEntries(Object.entries(choice.characteristics).filter(([ch]) => ch !== id));
        if (part === "choices" && choice.confusions) {
          choice.confusions = Object.fromEntries(Object.entries(choice.confusions).filter(([other]) => other !== id));
          choice.confusionsOrder = (choice.confusionsOrder ?? []).filter((o: string) => o !== id);
        }
        return [k, choice];
      }),
    );
    out = { ...out, choices };
  }
  return out;
}

/** A choice's images are file names keyed into the task's `images` map of URLs (the established shape). */
export function setChoiceImages(task: TaskDef, choiceId: string, urls: string[]): TaskDef {
  const names = urls.map((u) => u.split("/").pop()!.split("?")[0] || u);
  const images = { ...(task.images ?? {}) };
  urls.forEach((u, i) => {
    images[names[i]] = u;
  });
  // Drop images no choice uses any more.
  const choices = { ...(task.choices ?? {}), [choiceId]: { ...(task.choices?.[choiceId] ?? {}), images: names } };
  const used = new Set(Object.values(choices).flatMap((c) => ((c as TaskDef).images ?? []) as string[]));
  return { ...task, choices, images: Object.fromEntries(Object.entries(images).filter(([n]) => used.has(n))) };
}

/** A choice's image URLs, in order. */
export function choiceImageUrls(task: TaskDef, choiceId: string): string[] {
  return ((task.choices?.[choiceId]?.images ?? []) as string[]).map((n) => task.images?.[n] ?? n);
}

/** Sets (or, with empty text, removes) what tells a choice apart from another one it is often confused with. */
export function setConfusion(task: TaskDef, choiceId: string, otherId: string, text: string): TaskDef {
  const choice: TaskDef = { ...(task.choices?.[choiceId] ?? {}) };
  const confusions = { ...(choice.confusions ?? {}) };
  const order: string[] = (choice.confusionsOrder ?? []).filter((o: string) => o !== otherId);
  if (text.trim()) {
    confusions[otherId] = text;
    order.push(otherId);
  } else delete confusions[otherId];
  return updateSurveyEntry(task, "choices", choiceId, { ...choice, confusions, confusionsOrder: order });
}
