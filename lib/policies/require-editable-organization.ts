import type { Actor } from "@/lib/auth/actor";
import { forbidden, notFound } from "@/lib/errors";
import { parseIdValue } from "@/lib/text/params";
import { canOnOrganization, organizationReadScope } from "@/lib/policies/organization-policy";
import type { Tx } from "@/lib/db/types";

/** The id of an organization the actor may edit: 422 for a malformed id, 404 when invisible, 403 when read-only. */
export async function requireEditableOrganization(tx: Tx, actor: Actor, rawId: unknown, what = "links.organization"): Promise<number> {
  const id = parseIdValue(rawId, what);
  const organization = await tx.organization.findFirst({ where: { AND: [{ id }, organizationReadScope(actor)] }, select: { id: true } });
  if (!organization) throw notFound(`Could not find organizations with id='${id}'`);
  if (!(await canOnOrganization(actor, "update", id, tx))) throw forbidden("Only the organization's owner and collaborators may do that");
  return id;
}
