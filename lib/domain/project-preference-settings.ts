import { z } from "zod";
import { unprocessable } from "@/lib/errors";
import { parseIdValue } from "@/lib/text/params";
import type { Tx } from "@/lib/db/types";

// A project preference's `settings` column holds what the project team sets for one volunteer:
// `workflow_id` (the workflow to send them to) and `designator.subject_set_chances` (per workflow id, per
// subject-set id, a weight; lib/domain/subject-queue.ts reads it from settings->'designator').

const ZId = z.union([z.string(), z.number()]);
// Ids are PostgreSQL integers: ten digits past 2147483647 were a 500 once they reached the database.
const ZIdKey = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, "keys must be ids")
  .refine((k) => Number(k) <= 2 ** 31 - 1, "keys must be ids");
export const ZPreferenceSettings = z.strictObject({ workflow_id: ZId.nullable().optional() });
export const ZDesignator = z.strictObject({
  subject_set_chances: z.record(ZIdKey, z.record(ZIdKey, z.number().finite().min(0, "chances must be 0 or more"))),
});

export interface SettingsChange {
  settings?: z.infer<typeof ZPreferenceSettings>;
  designator?: z.infer<typeof ZDesignator>;
}

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/**
 * The settings after a change, checked against the project: workflow ids must be the project's workflows
 * and set ids its subject sets (422 otherwise). Chances merge per workflow: a workflow named in the change
 * gets exactly the given map; other workflows keep theirs. `workflow_id: null` unsets it.
 */
export async function settingsAfter(tx: Tx, pref: { projectId: number; settings: unknown }, change: SettingsChange): Promise<Json> {
  const next = { ...asObject(pref.settings) };
  const workflowIds = new Set<number>();
  const setIds = new Set<number>();
  if (change.settings?.workflow_id !== undefined) {
    if (change.settings.workflow_id === null) next.workflow_id = null;
    else {
      const id = parseIdValue(change.settings.workflow_id, "settings.workflow_id");
      workflowIds.add(id);
      next.workflow_id = String(id);
    }
  }
  if (change.designator) {
    const chances = change.designator.subject_set_chances;
    for (const [w, sets] of Object.entries(chances)) {
      workflowIds.add(Number(w));
      for (const s of Object.keys(sets)) setIds.add(Number(s));
    }
    const designator = asObject(next.designator);
    next.designator = { ...designator, subject_set_chances: { ...asObject(designator.subject_set_chances), ...chances } };
  }
  if (workflowIds.size) {
    const found = await tx.workflow.count({ where: { id: { in: [...workflowIds] }, projectId: pref.projectId } });
    if (found !== workflowIds.size) throw unprocessable("workflow ids must be workflows of the preference's project");
  }
  if (setIds.size) {
    const found = await tx.subjectSet.count({ where: { id: { in: [...setIds] }, projectId: pref.projectId } });
    if (found !== setIds.size) throw unprocessable("subject set ids must be subject sets of the preference's project");
  }
  return next;
}
