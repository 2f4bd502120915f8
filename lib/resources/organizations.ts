import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { OrganizationPage, Prisma } from "@/lib/generated/prisma/client";
import { forbidden, unprocessable } from "@/lib/errors";
import { parseBooleanParam, parseIdList, parseIdValue } from "@/lib/text/params";
import { rankedOrganizationIds } from "@/lib/domain/search-organizations";
import { canOnOrganization, organizationReadScope } from "@/lib/policies/organization-policy";
import { projectActionScope, projectReadScope } from "@/lib/policies/project-policy";
import { ZLanguageCode } from "@/lib/text/language-code";
import { deleteMediaOf, mediaInclude, mediaLinkTemplates, mediaSrcs } from "./media";
import { organizationRoles, serializeOrganizationRole } from "./organization-roles";
import { serializePage } from "./pages";
import { projects } from "./projects";
import { slugFor } from "@/lib/text/slug";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import { users } from "./users";
import { organizationQueryInclude, serializeOrganization, type OrganizationRow } from "./organization-wire";
import { equalsIgnoringCase } from "@/lib/db/like";

// Organizations group projects (related by discipline or research group). Listed organizations are
// public; an unlisted one is seen by holders of its roles and admins (lib/policies/organization-policy.ts).
// Only admins list or unlist one. Its roles, pages and media live under it and go with it.

const text = (max = 100_000) => z.string().max(max);
const ZHttpUrl = z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).max(2000);
const ZUrlEntry = z.strictObject({ url: ZHttpUrl, label: text(255).optional(), path: text(2000).optional(), site: text(2000).optional() });
const ZLabel = z.string().trim().min(1, "can't be blank").max(100);
const ZLinkIds = z.array(z.union([z.string(), z.number()])).max(1000);

// A missing required attribute reads "display_name: is required" rather than a type error.
const required = { error: (issue: { input: unknown }) => (issue.input === undefined ? "is required" : undefined) };

const organizationFields = {
  display_name: z.string(required).trim().min(1, "can't be blank").max(255),
  title: text(255),
  description: z.string(required).max(100_000),
  introduction: text(),
  announcement: text(),
  primary_language: z.string(required).pipe(ZLanguageCode),
  available_languages: z.array(ZLanguageCode).max(200),
  urls: z.array(ZUrlEntry).max(100),
  categories: z.array(ZLabel).max(100),
  tags: z.array(ZLabel).max(100),
  listed: z.boolean(),
};
const ZLinks = z.strictObject({ projects: ZLinkIds.optional() }).optional();

export const ZCreateOrganization = z
  .strictObject({ ...organizationFields, links: ZLinks })
  .partial()
  .extend({
    display_name: organizationFields.display_name,
    description: organizationFields.description,
    primary_language: organizationFields.primary_language,
  });
export const ZUpdateOrganization = z.strictObject({ ...organizationFields, links: ZLinks }).partial();
type TOrganizationInput = z.infer<typeof ZUpdateOrganization>;

const unique = (values: string[]) => [...new Set(values)];

function columns(input: TOrganizationInput): Prisma.OrganizationUncheckedUpdateInput {
  return {
    displayName: input.display_name,
    title: input.title,
    description: input.description,
    introduction: input.introduction,
    announcement: input.announcement,
    primaryLanguage: input.primary_language,
    availableLanguages: input.available_languages && unique(input.available_languages),
    urls: input.urls as Prisma.InputJsonValue | undefined,
    categories: input.categories && unique(input.categories),
    // Tags are matched without regard to case, as the reference platform stores them.
    tags: input.tags && unique(input.tags.map((t) => t.toLowerCase())),
    listed: input.listed,
  };
}

/** Listing is an admin's decision; anyone may send back the value the organization already has. */
function checkListed(actor: Actor, listed: boolean | undefined, current: boolean) {
  if (listed !== undefined && listed !== current && !actor.user?.admin) throw forbidden("Only admins may list or unlist an organization");
}

/** listed_at records when an organization was listed: set when it becomes listed, cleared when unlisted. */
function listedAt(listed: boolean | undefined, row?: { listed: boolean; listedAt: Date | null }): Date | null | undefined {
  if (listed === undefined) return undefined;
  if (!listed) return null;
  return row?.listed && row.listedAt ? row.listedAt : new Date();
}

const linkIds = (raw: unknown[] | undefined) => [...new Set((raw ?? []).map((v) => parseIdValue(v, "links.projects")))];

/** Projects may be linked by those who edit them (admins: any). */
async function requireEditableProjects(tx: Tx, actor: Actor, projectIds: number[]) {
  if (!projectIds.length) return;
  const editable = await tx.project.findMany({
    where: { AND: [{ id: { in: projectIds } }, projectActionScope(actor, "update")] },
    select: { id: true },
  });
  const ok = new Set(editable.map((p) => p.id));
  const refused = projectIds.filter((id) => !ok.has(id));
  if (refused.length)
    throw unprocessable(`projects: ${refused.join(", ")} ${refused.length === 1 ? "is not a project" : "are not projects"} you can edit`);
}

async function linkProjects(tx: Tx, actor: Actor, organizationId: number, projectIds: number[]) {
  await requireEditableProjects(tx, actor, projectIds);
  if (projectIds.length)
    await tx.organizationProject.createMany({ data: projectIds.map((projectId) => ({ organizationId, projectId })), skipDuplicates: true });
}

const touch = (tx: Tx, id: number) => tx.organization.update({ where: { id }, data: { updatedAt: new Date() } });

export const organizations: ResourceDef<OrganizationRow> = {
  type: "organizations",
  table: "organizations",
  model: "organization",
  tokenScopes: { read: "none", write: "organization" },
  queryInclude: organizationQueryInclude,
  serialize: serializeOrganization,
  present: async (record, row, { actor }) => {
    const privateIds = row.projects.filter((p) => p.project.private).map((p) => p.projectId);
    const [avatars, visiblePrivate] = await Promise.all([
      mediaSrcs("organizations", [row.id], "avatar"),
      privateIds.length && actor.user && !actor.user.admin
        ? db().project.findMany({ where: { AND: [{ id: { in: privateIds } }, projectReadScope(actor)] }, select: { id: true } })
        : Promise.resolve([]),
    ]);
    const seen = new Set(visiblePrivate.map((p) => p.id));
    const links = { ...record.links };
    if (seen.size)
      links.projects = row.projects
        .filter((p) => actor.user?.admin || !p.project.private || seen.has(p.projectId))
        .map((p) => String(p.projectId));
    // The reference platform answers an empty string when there is no avatar.
    return { ...record, avatar_src: avatars.get(row.id) ?? "", links };
  },
  linkTemplates: {
    owner: { href: "/{organizations.owner.href}", type: "owners" },
    organization_roles: { href: "/organization_roles?organization_id={organizations.id}", type: "organization_roles" },
    projects: { href: "/projects?organization_id={organizations.id}", type: "projects" },
    pages: { href: "/organizations/{organizations.id}/pages", type: "organization_pages" },
    ...mediaLinkTemplates("organizations", ["avatar", "background", "attached_images"]),
  },
  includes: {
    organization_roles: {
      type: "organization_roles",
      load: async (rows, actor) => {
        // Only the roles this actor may see (its own, or all of organizations it edits).
        const roles = await db().organizationRole.findMany({
          where: { AND: [{ organizationId: { in: rows.map((r) => r.id) } }, await organizationRoles.readScope(actor)] },
          include: organizationRoles.queryInclude,
          orderBy: { id: "asc" },
        });
        return roles.map((r) => ({ record: serializeOrganizationRole(r as never), parentIds: [r.organizationId] }));
      },
    },
    projects: {
      type: "projects",
      load: async (rows, actor) => {
        const ids = new Set(rows.map((r) => r.id));
        const found = await db().project.findMany({
          where: { AND: [{ organizations: { some: { organizationId: { in: [...ids] } } } }, projectReadScope(actor)] },
          include: projects.queryInclude as Prisma.ProjectInclude,
          orderBy: { id: "asc" },
        });
        return found.map((p) => ({
          record: projects.serialize(p as never, actor),
          parentIds: (p as unknown as { organizations: { organizationId: number }[] }).organizations
            .map((o) => o.organizationId)
            .filter((id) => ids.has(id)),
        }));
      },
    },
    owners: {
      type: "users",
      load: async (rows, actor) => {
        const owners = await db().user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.ownerId))] } } });
        return owners.map((u) => ({
          record: users.serialize(u, actor),
          parentIds: rows.filter((r) => r.ownerId === u.id).map((r) => r.id),
        }));
      },
    },
    pages: {
      type: "organization_pages",
      load: async (rows) => {
        const pages = await db().organizationPage.findMany({
          where: { organizationId: { in: rows.map((r) => r.id) } },
          orderBy: { id: "asc" },
        });
        const kind = {
          type: "organization_pages",
          parentType: "organizations",
          parentLink: "organization",
          parentId: (p: OrganizationPage) => p.organizationId,
        };
        return pages.map((p) => ({ record: serializePage<OrganizationPage>(kind, p), parentIds: [p.organizationId] }));
      },
    },
    avatar: mediaInclude("organizations", "avatar"),
    background: mediaInclude("organizations", "background"),
    attached_images: mediaInclude("organizations", "attached_images"),
  },
  filters: {
    owner: (v) => ({ owner: { OR: v.split(",").map((login) => ({ login: login.trim() })) } }),
    search: async (v) => ({ id: { in: await rankedOrganizationIds(v) } }),
    listed: (v) => ({ listed: parseBooleanParam(v, "listed") }),
    display_name: (v) => ({ displayName: v }),
    slug: (v) => ({ slug: equalsIgnoringCase(v) }),
    categories: (v) => ({ categories: { hasSome: v.split(",").map((c) => c.trim()) } }),
    category: (v) => ({ categories: { hasSome: v.split(",").map((c) => c.trim()) } }),
    tags: (v) => ({ tags: { hasSome: v.split(",").map((t) => t.trim().toLowerCase()) } }),
    project_id: (v, actor) => ({
      projects: { some: { projectId: { in: parseIdList(v, "project_id") }, project: projectReadScope(actor) } },
    }),
    // Organizations where the caller holds one of these roles (nothing for anonymous callers).
    current_user_roles: (v, actor) =>
      actor.user ? { roles: { some: { userId: actor.user.id, roles: { hasSome: v.split(",").map((r) => r.trim()) } } } } : { id: -1 },
  },
  sortable: { id: "id", display_name: "displayName", created_at: "createdAt", updated_at: "updatedAt", listed_at: "listedAt" },
  readScope: organizationReadScope,
  can: (actor, action, row, tx) => (action === "show" ? true : canOnOrganization(actor, action, row.id, tx)),
  create: {
    schema: ZCreateOrganization,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreateOrganization>) => {
      checkListed(actor, input.listed, false);
      const owner = actor.user!;
      const organization = await tx.organization.create({
        data: {
          ...(columns(input) as Prisma.OrganizationUncheckedCreateInput),
          ownerId: owner.id,
          slug: slugFor(owner.login, input.display_name),
          listedAt: listedAt(input.listed),
        },
      });
      await tx.organizationRole.create({ data: { organizationId: organization.id, userId: owner.id, roles: ["owner"] } });
      await linkProjects(tx, actor, organization.id, linkIds(input.links?.projects));
      return organization.id;
    },
  },
  update: {
    schema: ZUpdateOrganization,
    perform: async ({ actor, tx }, row, input: TOrganizationInput) => {
      checkListed(actor, input.listed, row.listed);
      const data = { ...columns(input), listedAt: listedAt(input.listed, row), updatedAt: new Date() };
      if (input.display_name !== undefined && input.display_name !== row.displayName)
        data.slug = slugFor(row.owner.login, input.display_name);
      await tx.organization.update({ where: { id: row.id }, data });
      // links.projects on an edit is the whole new set: new projects need edit rights on them, dropped ones go.
      if (input.links?.projects) {
        const wanted = linkIds(input.links.projects);
        const current = new Set(row.projects.map((p) => p.projectId));
        await linkProjects(
          tx,
          actor,
          row.id,
          wanted.filter((id) => !current.has(id)),
        );
        await tx.organizationProject.deleteMany({ where: { organizationId: row.id, projectId: { notIn: wanted } } });
      }
    },
  },
  destroy: async ({ tx }, row) => {
    // Roles, pages and project links go by cascade; media rows have no foreign key.
    await deleteMediaOf(tx, "organizations", row.id);
    await tx.organization.delete({ where: { id: row.id } });
  },
  links: {
    projects: {
      add: async ({ actor, tx }, row, projectIds) => {
        await linkProjects(tx, actor, row.id, [...new Set(projectIds)]);
        await touch(tx, row.id);
      },
      remove: async ({ tx }, row, projectIds) => {
        await tx.organizationProject.deleteMany({ where: { organizationId: row.id, projectId: { in: projectIds } } });
        await touch(tx, row.id);
      },
    },
  },
};
