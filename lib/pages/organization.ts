import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { organizationReadScope } from "@/lib/policies/organization-policy";
import { projectReadScope } from "@/lib/policies/project-policy";

/** An organisation's page: the organisation (null when the visitor may not see it) and the projects of it they may see. */
export async function loadOrganizationPage(id: number, actor: Actor) {
  return db().organization.findFirst({
    where: { AND: [{ id }, organizationReadScope(actor)] },
    include: {
      projects: {
        where: { project: projectReadScope(actor) },
        select: { project: { select: { id: true, displayName: true, description: true } } },
        orderBy: { projectId: "asc" },
      },
    },
  });
}
