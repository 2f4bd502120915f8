import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { collectionReadScope } from "@/lib/policies/collection-policy";
import { projectReadScope } from "@/lib/policies/project-policy";
import { mediaSrcs } from "@/lib/resources/media";
import { volunteerProjectCounts } from "@/lib/counts/list-counters";
import { collectionCards, LIST_SELECT } from "./collections";

// A volunteer's profile (/users/<login>). Anyone sees the public part: the name, the avatar, since when
// they take part, and their collections the visitor may see. The volunteer themself also sees their
// projects with how many classifications they made on each (their project preferences, private as in the
// API) and, on the page, their counts over time (/counts/classifications/users/<id>, theirs alone). Both
// count the classifications the folder has not moved yet (the outbox), so the list and the chart agree.

export async function loadProfile(login: string, actor: Actor) {
  const user = await db().user.findFirst({
    where: { login, disabledAt: null },
    select: { id: true, login: true, displayName: true, createdAt: true, avatarSrc: true },
  });
  if (!user) return null;
  const self = actor.user?.id === user.id;
  const [avatars, collections, projects] = await Promise.all([
    mediaSrcs("users", [user.id], "avatar"),
    db().collection.findMany({
      where: { AND: [{ ownerId: user.id, favorite: false }, collectionReadScope(actor)] },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: 24,
      select: LIST_SELECT,
    }),
    self ? myProjects(user.id, actor) : [],
  ]);
  return {
    user: { id: user.id, login: user.login, displayName: user.displayName, createdAt: user.createdAt },
    avatar: avatars.get(user.id) ?? user.avatarSrc ?? null,
    self,
    collections: await collectionCards(collections, actor),
    projects,
  };
}

/** The projects a volunteer classified on and may still see, with their counts, most first (at most 100). */
async function myProjects(userId: number, actor: Actor) {
  const counts = await volunteerProjectCounts(userId);
  const visible = await db().project.findMany({
    where: { AND: [{ id: { in: counts.map((c) => c.projectId) } }, projectReadScope(actor)] },
    select: { id: true, displayName: true },
  });
  const names = new Map(visible.map((p) => [p.id, p.displayName]));
  return counts
    .filter((c) => names.has(c.projectId))
    .slice(0, 100)
    .map((c) => ({ id: c.projectId, displayName: names.get(c.projectId)!, classifications: c.count }));
}
