import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { frameMediaOf } from "./media-of";
import { mediaSrcs } from "@/lib/resources/media";
import { organizationReadScope } from "@/lib/policies/organization-policy";
import { projectReadScope, rolesAllow } from "@/lib/policies/project-policy";

// Everything the project's front page shows, read for one visitor in a few queries: the project (404 when
// they may not see it), its active workflows with their completeness, about pages, team, organisations,
// avatar and background, and the visitor's recently classified subjects of the project.

export interface AboutPage {
  key: string;
  title: string;
  content: string;
}

/** The established platform's older about texts, kept on the project; project pages of the same key win. */
const LEGACY_PAGES: [key: string, title: string, field: "scienceCase" | "result" | "faq" | "educationContent"][] = [
  ["science_case", "Research", "scienceCase"],
  ["results", "Results", "result"],
  ["faq", "FAQ", "faq"],
  ["education", "Education", "educationContent"],
];
const PAGE_ORDER = ["science_case", "research", "team", "results", "education", "faq"];
const TEAM_ROLES = ["owner", "collaborator", "scientist", "moderator"] as const;

export async function loadProjectPage(id: number, actor: Actor) {
  const project = await db().project.findFirst({
    where: { AND: [{ id }, projectReadScope(actor)] },
    include: {
      owner: { select: { id: true, login: true, displayName: true } },
      workflows: {
        where: { active: true },
        orderBy: { id: "asc" },
        select: { id: true, displayName: true, completeness: true, classificationsCount: true },
      },
      pages: { where: { language: { in: ["en"] } }, select: { urlKey: true, title: true, content: true, language: true } },
      organizations: {
        where: { organization: organizationReadScope(actor) },
        select: { organization: { select: { id: true, displayName: true } } },
      },
      roles: {
        where: { roles: { hasSome: [...TEAM_ROLES] } },
        orderBy: { id: "asc" },
        select: { roles: true, user: { select: { id: true, login: true, displayName: true } } },
      },
    },
  });
  if (!project) return null;
  const [avatars, backgrounds] = await Promise.all([mediaSrcs("projects", [id], "avatar"), mediaSrcs("projects", [id], "background")]);

  const pages = new Map<string, AboutPage>();
  for (const p of project.pages)
    if (p.content.trim()) pages.set(p.urlKey, { key: p.urlKey, title: p.title || p.urlKey, content: p.content });
  for (const [key, title, field] of LEGACY_PAGES)
    if (!pages.has(key) && project[field].trim()) pages.set(key, { key, title, content: project[field] });
  const about = [...pages.values()].sort((a, b) => rank(a.key) - rank(b.key) || a.title.localeCompare(b.title));

  const myRoles = actor.user
    ? (project.roles.find((r) => r.user.id === actor.user!.id)?.roles ??
      (await db().projectRole.findFirst({ where: { projectId: id, userId: actor.user.id }, select: { roles: true } }))?.roles ??
      [])
    : [];
  const recents = actor.user ? await recentSubjects(id, actor.user.id) : [];
  return {
    project,
    avatar: avatars.get(id) ?? project.avatar ?? null,
    background: backgrounds.get(id) ?? project.backgroundImage ?? null,
    about,
    team: project.roles.map((r) => ({ ...r.user, roles: r.roles.filter((x) => (TEAM_ROLES as readonly string[]).includes(x)) })),
    organizations: project.organizations.map((o) => o.organization),
    recents,
    canEdit: !!actor.user && (actor.user.admin || rolesAllow(myRoles, "update")),
  };
}

const rank = (key: string) => {
  const i = PAGE_ORDER.indexOf(key);
  return i < 0 ? PAGE_ORDER.length : i;
};

/** The volunteer's last classified subjects of the project (newest first, each once), with a picture. */
async function recentSubjects(projectId: number, userId: number) {
  const rows = await db().$queryRawUnsafe<{ subject_id: number; created_at: Date; locations: unknown }[]>(
    `SELECT DISTINCT ON (r.subject_id) r.subject_id, r.created_at, s.locations
     FROM (SELECT unnest(subject_ids) AS subject_id, created_at, id FROM classifications
           WHERE user_id = $1 AND project_id = $2 AND completed ORDER BY id DESC LIMIT 20) r
     JOIN subjects s ON s.id = r.subject_id
     ORDER BY r.subject_id, r.id DESC`,
    userId,
    projectId,
  );
  return rows
    .sort((a, b) => b.created_at.getTime() - a.created_at.getTime())
    .slice(0, 8)
    .map((r) => ({ subjectId: r.subject_id, classifiedAt: r.created_at, ...frameMediaOf(r.locations) }));
}
