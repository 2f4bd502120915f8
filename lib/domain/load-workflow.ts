import type { Actor } from "@/lib/auth/actor";
import type { Sql } from "@/lib/db/sql";
import { notFound } from "@/lib/errors";
import { rolesAllow } from "@/lib/policies/project-policy";

export interface WorkflowForActor {
  id: number;
  projectId: number;
  version: string;
  retirement: unknown;
  configuration: Record<string, unknown>;
  prioritized: boolean;
  grouped: boolean;
  active: boolean;
  /** The actor's roles on the workflow's project ([] for none or anonymous). */
  roles: string[];
  canEdit: boolean;
}

/** One query: the workflow, if the actor may see its project (404 otherwise), with the actor's roles. */
export async function loadWorkflowForActor(client: Sql, workflowId: number, actor: Actor): Promise<WorkflowForActor> {
  const { rows } = await client.query(
    `SELECT w.id, w.project_id, w.major_version, w.minor_version, w.retirement, w.configuration, w.prioritized, w.grouped, w.active,
            p.private, coalesce(pr.roles, '{}') AS roles
     FROM workflows w JOIN projects p ON p.id = w.project_id
     LEFT JOIN project_roles pr ON pr.project_id = p.id AND pr.user_id = $2
     WHERE w.id = $1`,
    [workflowId, actor.user?.id ?? null],
  );
  const w = rows[0];
  const admin = !!actor.user?.admin;
  if (!w || (w.private && !admin && !rolesAllow(w.roles, "show"))) throw notFound(`Could not find workflows with id='${workflowId}'`);
  return {
    id: w.id,
    projectId: w.project_id,
    version: `${w.major_version}.${w.minor_version}`,
    retirement: w.retirement,
    configuration: w.configuration ?? {},
    prioritized: w.prioritized,
    grouped: w.grouped,
    active: w.active,
    roles: w.roles,
    canEdit: admin || rolesAllow(w.roles, "update"),
  };
}

export const GOLD_STANDARD_ROLES = ["owner", "collaborator", "expert"];
