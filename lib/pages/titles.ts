import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { collectionReadScope } from "@/lib/policies/collection-policy";
import { organizationReadScope } from "@/lib/policies/organization-policy";
import { projectReadScope } from "@/lib/policies/project-policy";

// The names pages put in their titles: a record's name only when the visitor may see the record (a private
// project's name never reaches a title, nor a tab, of someone without a role).

export async function visibleProjectName(id: number, actor: Actor): Promise<string | null> {
  const p = await db().project.findFirst({ where: { AND: [{ id }, projectReadScope(actor)] }, select: { displayName: true } });
  return p?.displayName ?? null;
}

export async function visibleOrganizationName(id: number, actor: Actor): Promise<string | null> {
  const o = await db().organization.findFirst({ where: { AND: [{ id }, organizationReadScope(actor)] }, select: { displayName: true } });
  return o?.displayName ?? null;
}

export async function visibleCollectionName(id: number, actor: Actor): Promise<string | null> {
  const c = await db().collection.findFirst({ where: { AND: [{ id }, collectionReadScope(actor)] }, select: { displayName: true } });
  return c?.displayName ?? null;
}

/** A volunteer's display name (public, as on their profile), unless the account was deleted. */
export async function profileName(login: string): Promise<string | null> {
  const u = await db().user.findFirst({ where: { login, disabledAt: null }, select: { displayName: true } });
  return u?.displayName ?? null;
}
