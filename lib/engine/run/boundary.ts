import type { Actor } from "@/lib/auth/actor";
import type { Sql } from "@/lib/db/sql";
import type { TEffectConfig } from "@/lib/engine/effects";
import { unprocessable } from "@/lib/errors";
import { COLLECTION_PERMISSIONS } from "@/lib/policies/collection-policy";
import { PROJECT_PERMISSIONS } from "@/lib/policies/project-policy";

// The engine's trust boundary between projects. An editor of one workflow reaches only that workflow's
// project: every id an engine input names (a forwarded classification's subject and volunteer, a posted
// extract's classification, subject and volunteer, a posted reduction's target, an imported extract's
// subject) and every target an effect acts on (its subject or volunteer, and the subject set, collection or
// workflow its configuration names) is checked here, when it comes in and again when an effect runs.
//
// A workflow without a project (configured by an admin, fed by an external forwarder) has a subject space
// of its own: its ids are never taken for component A's subjects or users, and its effects can only call
// out (external_effect).

/** The workflow an engine input or action belongs to, and its project (null: an external subject space). */
export interface EngineScope {
  workflowId: number;
  projectId: number | null;
}

/** The key subject metadata is cached under: 0 for component A's subjects, the workflow for an external space. */
export const subjectSpace = (scope: { id: number; project_id: number | null }) => (scope.project_id === null ? scope.id : 0);

/** The scope of a workflow the engine knows (null when it has no configuration). */
export async function engineScope(client: Sql, workflowId: number): Promise<EngineScope | null> {
  const { rows } = await client.query<{ project_id: number | null }>(`SELECT project_id FROM engine_workflows WHERE id = $1`, [workflowId]);
  return rows[0] ? { workflowId, projectId: rows[0].project_id } : null;
}

const EDIT_ROLES = [...PROJECT_PERMISSIONS.update];
const COLLECTION_ADD_ROLES = [...COLLECTION_PERMISSIONS.add_subjects];

// Each predicate below is true when its id belongs to project $1; the same SQL serves the checks of
// inputs (many ids at once) and of actions (one at a time, and the batch of retirements).

/** A subject of the project. */
const SUBJECT_OF_PROJECT = (id: string, project: string) =>
  `EXISTS (SELECT 1 FROM subjects s WHERE s.id = ${id} AND s.project_id = ${project})`;

/** A volunteer of the project: one who has classified in it, has preferences there, or holds a role on it. */
const USER_OF_PROJECT = (id: string, project: string) => `(
  EXISTS (SELECT 1 FROM project_preferences pp WHERE pp.user_id = ${id} AND pp.project_id = ${project})
  OR EXISTS (SELECT 1 FROM project_roles pr WHERE pr.user_id = ${id} AND pr.project_id = ${project})
  OR EXISTS (SELECT 1 FROM classifications c WHERE c.user_id = ${id} AND c.project_id = ${project}))`;

/**
 * A collection the project's editors may add to: owned by one of them (or by a group one of them is an
 * active group_admin of), or one on which one of them holds a role that adds subjects. An effect adds
 * subjects on the project editors' behalf, so it reaches no one else's collection, and stops reaching a
 * collection once nobody editing the project may add to it.
 */
const COLLECTION_OF_PROJECT_EDITORS = (id: string, project: string) => `EXISTS (
  SELECT 1 FROM collections col JOIN project_roles pr ON pr.project_id = ${project} AND pr.roles && '{${EDIT_ROLES.join(",")}}'::text[]
  WHERE col.id = ${id} AND (
    col.owner_id = pr.user_id
    OR EXISTS (SELECT 1 FROM collection_roles cr WHERE cr.collection_id = col.id AND cr.user_id = pr.user_id
      AND cr.roles && '{${COLLECTION_ADD_ROLES.join(",")}}'::text[])
    OR EXISTS (SELECT 1 FROM memberships m WHERE m.user_group_id = col.owner_group_id AND m.user_id = pr.user_id
      AND m.state = 'active' AND 'group_admin' = ANY(m.roles))))`;

const SET_OF_PROJECT = (id: string, project: string) =>
  `EXISTS (SELECT 1 FROM subject_sets ss WHERE ss.id = ${id} AND ss.project_id = ${project})`;
const WORKFLOW_OF_PROJECT = (id: string, project: string) =>
  `EXISTS (SELECT 1 FROM workflows w WHERE w.id = ${id} AND w.project_id = ${project})`;

/** Of `ids`, those that fail `predicate` for the owner (a project, or a workflow), in the order given, each once. */
async function outside(client: Sql, ownerId: number, ids: number[], predicate: (id: string, owner: string) => string): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const { rows } = await client.query<{ id: number }>(
    `SELECT i AS id FROM unnest($2::int[]) WITH ORDINALITY AS x(i, n) WHERE NOT ${predicate("i", "$1")} ORDER BY n`,
    [ownerId, unique],
  );
  return rows.map((r) => r.id);
}

/** What an engine input names: subjects, volunteers and classifications (null and undefined entries are skipped). */
export interface NamedIds {
  subjects?: (number | null | undefined)[];
  users?: (number | null | undefined)[];
  classifications?: (number | null | undefined)[];
}

const present = (ids: (number | null | undefined)[] | undefined) => (ids ?? []).filter((i): i is number => typeof i === "number");

/**
 * A classification id workflow $1 may name: one of its own (component A's of that workflow, one a forwarder
 * posted for it, one its extracts already name, such as a machine extract's negative id), or one that is
 * no classification of component A at all (a forwarder's ids are each workflow's own). Component A's
 * classification of another workflow is refused.
 */
const CLASSIFICATION_OF_WORKFLOW = (id: string, workflow: string) => `(
  NOT EXISTS (SELECT 1 FROM classifications c WHERE c.id = ${id} AND c.workflow_id <> ${workflow})
  OR EXISTS (SELECT 1 FROM engine_classifications ec WHERE ec.workflow_id = ${workflow} AND ec.id = ${id})
  OR EXISTS (SELECT 1 FROM extracts e WHERE e.workflow_id = ${workflow} AND e.classification_id = ${id}))`;

/**
 * Refuses (422) an input that names a subject or volunteer outside the scope's project, or a classification
 * of another workflow. The answer is the same whether the id exists elsewhere or not, so it tells nothing
 * about other projects. A workflow without a project names subjects and volunteers of its own space:
 * only its classifications are checked.
 */
export async function requireIdsInScope(client: Sql, scope: EngineScope, named: NamedIds): Promise<void> {
  const [classification] = await outside(client, scope.workflowId, present(named.classifications), CLASSIFICATION_OF_WORKFLOW);
  if (classification !== undefined)
    throw unprocessable(`classification ${classification} is not a classification of workflow ${scope.workflowId}`);
  if (scope.projectId === null) return;
  const [subject] = await outside(client, scope.projectId, present(named.subjects), SUBJECT_OF_PROJECT);
  if (subject !== undefined) throw unprocessable(`subject ${subject} is not a subject of workflow ${scope.workflowId}'s project`);
  const [user] = await outside(client, scope.projectId, present(named.users), USER_OF_PROJECT);
  if (user !== undefined) throw unprocessable(`user ${user} is not a volunteer of workflow ${scope.workflowId}'s project`);
}

/** Of these subject ids, those that are not subjects of the project (for loading forwarded classifications). */
export const subjectsOutside = (client: Sql, projectId: number, ids: number[]) => outside(client, projectId, ids, SUBJECT_OF_PROJECT);

/**
 * Refuses (422) a configuration whose effects act outside the workflow's project: a subject set or a
 * workflow of another project, a collection the saver may not add to or that no editor of the project may
 * add to; and, for a workflow without a project, any effect but external_effect. Targets the stored
 * configuration already had (`before`) are not held against a saver who may not add to them (a
 * collaborator saving the owner's configuration); the effect is checked again whenever it runs.
 */
export async function requireEffectTargets(
  client: Sql,
  actor: Actor,
  scope: EngineScope,
  effects: readonly TEffectConfig[],
  before: readonly unknown[] = [],
): Promise<void> {
  const had = new Set(before.map((e) => JSON.stringify(targetOf(e as TEffectConfig))));
  for (const effect of effects) {
    if (scope.projectId === null && effect.action !== "external_effect")
      throw unprocessable(`${effect.action}: a workflow without a project acts on nothing of this platform; use external_effect`);
    const target = targetOf(effect);
    if (!target || scope.projectId === null) continue;
    const [kind, id] = target;
    const problem = await targetProblem(client, scope.projectId, kind, id);
    if (problem) throw unprocessable(`${effect.action}: ${problem}`);
    if (kind === "collection" && !had.has(JSON.stringify(target)) && !(await saverMayAdd(client, actor, id)))
      throw unprocessable(`${effect.action}: collection ${id} is not a collection you may add subjects to`);
  }
}

type Target = ["subject_set" | "collection" | "workflow", number];

function targetOf(effect: TEffectConfig | undefined): Target | null {
  switch (effect?.action) {
    case "add_subject_to_set":
      return ["subject_set", Number(effect.subject_set_id)];
    case "add_subject_to_collection":
      return ["collection", Number(effect.collection_id)];
    case "promote_user":
      return ["workflow", Number(effect.workflow_id)];
    default:
      return null;
  }
}

/** Why a configured target is outside the project, or null. */
async function targetProblem(client: Sql, projectId: number, kind: Target[0], id: number): Promise<string | null> {
  const predicate = { subject_set: SET_OF_PROJECT, workflow: WORKFLOW_OF_PROJECT, collection: COLLECTION_OF_PROJECT_EDITORS }[kind];
  if (!(await outside(client, projectId, [id], predicate)).length) return null;
  if (kind === "collection") return `collection ${id} is not a collection an editor of this project may add subjects to`;
  return `${kind === "subject_set" ? "subject set" : "workflow"} ${id} is not a ${kind === "subject_set" ? "subject set" : "workflow"} of this project`;
}

/** May the saver add subjects to the collection (its owner, a group_admin of its owning group, a role that adds; admins)? */
async function saverMayAdd(client: Sql, actor: Actor, collectionId: number): Promise<boolean> {
  if (actor.user?.admin) return true;
  if (!actor.user) return false;
  const { rows } = await client.query(
    `SELECT 1 FROM collections col WHERE col.id = $1 AND (col.owner_id = $2
       OR EXISTS (SELECT 1 FROM collection_roles cr WHERE cr.collection_id = col.id AND cr.user_id = $2 AND cr.roles && $3::text[])
       OR EXISTS (SELECT 1 FROM memberships m WHERE m.user_group_id = col.owner_group_id AND m.user_id = $2
         AND m.state = 'active' AND 'group_admin' = ANY(m.roles)))`,
    [collectionId, actor.user.id, COLLECTION_ADD_ROLES],
  );
  return rows.length > 0;
}

/** An action as it is performed: the effect, its workflow, and the subject or volunteer it acts on. */
export interface ActionTarget {
  workflow_id: number;
  topic: "subject" | "user";
  subject_id: number | null;
  user_id: number | null;
  effect_type: string;
  config: Record<string, unknown>;
}

/**
 * Why an action may not be performed (its subject, volunteer or configured target is outside its
 * workflow's project), or null. Checked at the moment it runs, so neither a reduction posted for a foreign
 * target nor a configuration saved before these checks existed reaches another project.
 */
export async function actionOutOfScope(client: Sql, a: ActionTarget): Promise<string | null> {
  if (a.effect_type === "external_effect") return null;
  const scope = await engineScope(client, a.workflow_id);
  if (!scope) return `workflow ${a.workflow_id} is not in the decision engine`;
  if (scope.projectId === null) return `${a.effect_type}: a workflow without a project acts on nothing of this platform`;
  const subject = a.topic === "subject" ? a.subject_id : null;
  if (a.topic === "subject" && (subject === null || (await subjectsOutside(client, scope.projectId, [subject])).length))
    return `subject ${subject} is not a subject of workflow ${a.workflow_id}'s project`;
  if (a.topic === "user" && (a.user_id === null || (await outside(client, scope.projectId, [a.user_id], USER_OF_PROJECT)).length))
    return `user ${a.user_id} is not a volunteer of workflow ${a.workflow_id}'s project`;
  const target = targetOf({ action: a.effect_type, ...a.config } as TEffectConfig);
  return target ? targetProblem(client, scope.projectId, target[0], target[1]) : null;
}

/**
 * SQL condition on an engine_actions row `a` (retire_subject): its subject belongs to its workflow's
 * project. The batch of retirements performs only the actions it holds for; the rest go through
 * actionOutOfScope one by one and fail there.
 */
export const RETIREMENT_IN_SCOPE_SQL = `EXISTS (SELECT 1 FROM engine_workflows ew WHERE ew.id = a.workflow_id AND ew.project_id IS NOT NULL
  AND ${SUBJECT_OF_PROJECT("a.subject_id", "ew.project_id")})`;
