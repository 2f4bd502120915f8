import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { collectionReadScope } from "@/lib/policies/collection-policy";
import { projectReadScope } from "@/lib/policies/project-policy";
import { mediaSrcs } from "@/lib/resources/media";
import { collectionCards, LIST_SELECT } from "./collections";

// A volunteer's profile (/users/<login>). Anyone sees the public part: the name, the avatar, since when
// they take part, and their collections the visitor may see. The volunteer themself also sees their
// projects with how many classifications they made on each (their project preferences, private as in the
// API) and, on the page, their counts over time (/counts/classifications/users/<id>, theirs alone).

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
    self
      ? db().projectPreference.findMany({
          where: { userId: user.id, activityCount: { gt: 0 }, project: projectReadScope(actor) },
          orderBy: [{ activityCount: "desc" }, { projectId: "asc" }],
          take: 100,
          select: { activityCount: true, project: { select: { id: true, displayName: true } } },
        })
      : [],
  ]);
  return {
    user: { id: user.id, login: user.login, displayName: user.displayName, createdAt: user.createdAt },
    avatar: avatars.get(user.id) ?? user.avatarSrc ?? null,
    self,
    collections: await collectionCards(collections, actor),
    projects: projects.map((p) => ({ id: p.project.id, displayName: p.project.displayName, classifications: p.activityCount })),
  };
}
