import { db } from "@/lib/db";
import type { Organization, OrganizationPage, OrganizationRole, Project, ProjectPage } from "@/lib/generated/prisma/client";
import { mediumType } from "@/lib/resources/media";
import { uid } from "@/test/factories";
import { createOrganization, createOrganizationPage, createProjectPage } from "@/test/factories-organizations";
import {
  ACTORS,
  authorizationMatrix,
  castProject,
  createCast,
  MISSING_ID,
  only,
  read,
  signedIn,
  statuses,
  VIEWERS,
  write,
  type ActorName,
  type Cast,
  type MatrixRow,
  type MatrixWorld,
  type Secret,
  type Visibility,
} from "./authorization-matrix";

// The authorization matrix of component A's community resources (organizations, their roles, pages and
// media; project pages), with the same cast and checks as authorization-matrix.int.test.ts. On an
// organization the cast's role actors hold the organization role of the same name where one exists
// (collaborator, tester, scientist, moderator, translator); the expert holds none, so for an organization
// the expert is a stranger. "Private" is an unlisted organization.

const ORG_ROLE_ACTORS = ["collaborator", "tester", "scientist", "moderator", "translator"] as const;
/** Who sees an unlisted organization: its role holders and admins. */
const ORG_VIEWERS: readonly ActorName[] = [...ORG_ROLE_ACTORS, "owner", "admin"];
const ORG_EDITORS: readonly ActorName[] = ["collaborator", "owner", "admin"];
const VIS: readonly Visibility[] = ["public", "private"];
const on = (vis: Visibility) => (vis === "public" ? "(listed organization)" : "(unlisted organization)");

interface OrgWorld {
  organization: Organization;
  roles: Record<"owner" | (typeof ORG_ROLE_ACTORS)[number], OrganizationRole>;
  page: OrganizationPage;
}
interface World extends MatrixWorld {
  org: Record<Visibility, OrgWorld>;
  /** A project page of a public and of a private project. */
  projectPage: Record<Visibility, { project: Project; page: ProjectPage }>;
}
type Row = MatrixRow<World, any>;

async function castOrganization(cast: Cast, listed: boolean): Promise<OrgWorld> {
  const organization = await createOrganization(cast.members.owner.user.id, { listed, displayName: `Matrix org ${uid()}` });
  const roles = { owner: await db().organizationRole.findFirstOrThrow({ where: { organizationId: organization.id } }) } as OrgWorld["roles"];
  for (const r of ORG_ROLE_ACTORS) roles[r] = await db().organizationRole.create({ data: { organizationId: organization.id, userId: cast.members[r].user.id, roles: [r] } });
  const page = await createOrganizationPage(organization.id, { title: `Org page ${uid()}` });
  return { organization, roles, page };
}

/** A fresh organization of the cast (public or not) for a write that changes or removes it. */
async function freshOrganization(w: World, vis: Visibility): Promise<OrgWorld> {
  return castOrganization(w.cast, vis === "public");
}

async function setup(): Promise<World> {
  const cast = await createCast();
  const org = { public: await castOrganization(cast, true), private: await castOrganization(cast, false) };
  const projectPage = {} as World["projectPage"];
  for (const vis of VIS) {
    const project = await castProject(cast, { private: vis === "private" });
    projectPage[vis] = { project, page: await createProjectPage(project.id, { title: `Project page ${uid()}` }) };
  }
  const secrets: Secret[] = [
    { label: "the unlisted organization's name", text: org.private.organization.displayName, visibleTo: ORG_VIEWERS },
    { label: "the unlisted organization's page", text: org.private.page.title, visibleTo: ORG_VIEWERS },
    { label: "the private project's page", text: projectPage.private.page.title, visibleTo: VIEWERS },
  ];
  return { cast, secrets, org, projectPage };
}

/** Reads for an organization's records: 404 to outsiders when unlisted. */
const orgRead = (vis: Visibility) => (vis === "public" ? statuses(200) : only(ORG_VIEWERS, 200, 404));
/** Writes on an organization: editors; others who see it 403; outsiders of an unlisted one 404. */
const orgWrite = (vis: Visibility, ok: number) => only(ORG_EDITORS, ok, vis === "public" ? 403 : 404, { anonymous: 401, ...(vis === "public" ? {} : Object.fromEntries(["tester", "scientist", "moderator", "translator"].map((a) => [a, 403]))) });

const organizationRows: Row[] = [
  {
    name: "/api/organizations?owner= (the owner's organizations)",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/organizations?owner=${w.cast.members.owner.user.login}&page_size=100`,
    listed: {
      key: "organizations",
      records: (w) => [
        { label: "the listed organization", id: w.org.public.organization.id, visibleTo: ACTORS },
        { label: "the unlisted organization", id: w.org.private.organization.id, visibleTo: ORG_VIEWERS },
      ],
    },
  },
  {
    name: "/api/organizations?search= (the unlisted organization's name)",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/organizations?search=${encodeURIComponent(w.org.private.organization.displayName)}`,
    listed: { key: "organizations", records: (w) => [{ label: "the unlisted organization", id: w.org.private.organization.id, visibleTo: ORG_VIEWERS }] },
  },
  {
    name: "/api/organizations",
    method: "POST",
    expect: signedIn(201),
    fresh: async () => ({ name: `Created org ${uid()}` }),
    path: () => "/api/organizations",
    body: (_w, f) => ({ organizations: { display_name: f.name, description: "d", primary_language: "en" } }),
    unchanged: (_w, f) => db().organization.count({ where: { displayName: f.name } }),
  },
  {
    name: "/api/organizations/:id listed (admins only; unlisted organization)",
    method: "PUT",
    // Outsiders cannot see the unlisted organization at all.
    expect: statuses(403, { anonymous: 401, stranger: 404, expert: 404, admin: 200 }),
    fresh: (w) => freshOrganization(w, "private"),
    path: (_w, o: OrgWorld) => `/api/organizations/${o.organization.id}`,
    body: () => ({ organizations: { listed: true } }),
    unchanged: (_w, o: OrgWorld) => db().organization.findUnique({ where: { id: o.organization.id } }),
  },
  ...VIS.flatMap((vis): Row[] => [
    {
      name: `/api/organizations/:id ${on(vis)}`,
      method: "GET",
      expect: orgRead(vis),
      path: (w) => `/api/organizations/${w.org[vis].organization.id}?include=organization_roles,pages,owners`,
      missing: () => ({ path: `/api/organizations/${MISSING_ID}` }),
    },
    {
      name: `/api/organizations/:id ${on(vis)}`,
      method: "PUT",
      expect: orgWrite(vis, 200),
      fresh: (w) => freshOrganization(w, vis),
      path: (_w, o: OrgWorld) => `/api/organizations/${o.organization.id}`,
      body: () => ({ organizations: { description: `Changed ${uid()}` } }),
      unchanged: (_w, o: OrgWorld) => db().organization.findUnique({ where: { id: o.organization.id } }),
      missing: () => ({ path: `/api/organizations/${MISSING_ID}` }),
    },
    {
      name: `/api/organizations/:id ${on(vis)}`,
      method: "DELETE",
      expect: orgWrite(vis, 204),
      fresh: (w) => freshOrganization(w, vis),
      path: (_w, o: OrgWorld) => `/api/organizations/${o.organization.id}`,
      unchanged: (_w, o: OrgWorld) => db().organization.findUnique({ where: { id: o.organization.id } }),
      missing: () => ({ path: `/api/organizations/${MISSING_ID}` }),
    },
    {
      name: `/api/organizations/:id/links/projects ${on(vis)} ← a public project of the cast's owner`,
      method: "POST",
      // The cast's collaborator also collaborates on the project (castProject), so every organization editor may link it.
      expect: orgWrite(vis, 200),
      fresh: async (w) => ({ o: await freshOrganization(w, vis), project: await castProject(w.cast) }),
      path: (_w, f: { o: OrgWorld }) => `/api/organizations/${f.o.organization.id}/links/projects`,
      body: (_w, f: { project: Project }) => ({ projects: [String(f.project.id)] }),
      unchanged: (_w, f: { o: OrgWorld }) => db().organizationProject.count({ where: { organizationId: f.o.organization.id } }),
    },
    {
      name: `/api/organizations/:id/pages ${on(vis)}`,
      method: "GET",
      expect: orgRead(vis),
      path: (w) => `/api/organizations/${w.org[vis].organization.id}/pages`,
      missing: () => ({ path: `/api/organizations/${MISSING_ID}/pages` }),
    },
    {
      name: `/api/organizations/:id/pages/:page_id ${on(vis)}`,
      method: "GET",
      expect: orgRead(vis),
      path: (w) => `/api/organizations/${w.org[vis].organization.id}/pages/${w.org[vis].page.id}`,
    },
    {
      name: `/api/organizations/:id/pages ${on(vis)}`,
      method: "POST",
      // In the primary language: editors only (translators write the other languages).
      expect: orgWrite(vis, 201),
      fresh: async () => ({ key: `about_${uid()}` }),
      path: (w) => `/api/organizations/${w.org[vis].organization.id}/pages`,
      body: (_w, f) => ({ organization_pages: { url_key: f.key, title: "About", language: "en", content: "Text" } }),
      unchanged: (_w, f) => db().organizationPage.count({ where: { urlKey: f.key } }),
    },
    {
      name: `/api/organizations/:id/pages/:page_id ${on(vis)}`,
      method: "PUT",
      expect: orgWrite(vis, 200),
      fresh: async (w) => createOrganizationPage(w.org[vis].organization.id, { urlKey: `p_${uid()}` }),
      path: (w, p: OrganizationPage) => `/api/organizations/${w.org[vis].organization.id}/pages/${p.id}`,
      body: () => ({ organization_pages: { content: `Changed ${uid()}` } }),
      unchanged: (_w, p: OrganizationPage) => db().organizationPage.findUnique({ where: { id: p.id } }),
    },
    {
      name: `/api/organizations/:id/pages/:page_id ${on(vis)}`,
      method: "DELETE",
      expect: orgWrite(vis, 204),
      fresh: async (w) => createOrganizationPage(w.org[vis].organization.id, { urlKey: `p_${uid()}` }),
      path: (w, p: OrganizationPage) => `/api/organizations/${w.org[vis].organization.id}/pages/${p.id}`,
      unchanged: (_w, p: OrganizationPage) => db().organizationPage.findUnique({ where: { id: p.id } }),
    },
    {
      name: `/api/organizations/:id/avatar ${on(vis)}`,
      method: "POST",
      expect: orgWrite(vis, 201),
      fresh: (w) => freshOrganization(w, vis),
      path: (_w, o: OrgWorld) => `/api/organizations/${o.organization.id}/avatar`,
      body: () => ({ media: { content_type: "image/png" } }),
      unchanged: (_w, o: OrgWorld) => db().medium.count({ where: { linkedType: "organizations", linkedId: o.organization.id, type: mediumType("organizations", "avatar") } }),
    },
    {
      name: `/api/organization_roles?organization_id= ${on(vis)}`,
      method: "GET",
      expect: statuses(200),
      path: (w) => `/api/organization_roles?organization_id=${w.org[vis].organization.id}&page_size=100`,
      listed: {
        key: "organization_roles",
        // A role record: its holder, the organization's editors, admins.
        records: (w) => Object.entries(w.org[vis].roles).map(([holder, role]) => ({ label: `${holder}'s role`, id: role.id, visibleTo: [...new Set<ActorName>([holder as ActorName, ...ORG_EDITORS])] })),
      },
    },
    {
      name: `/api/organization_roles ${on(vis)} (give the expert a role)`,
      method: "POST",
      expect: orgWrite(vis, 201),
      fresh: (w) => freshOrganization(w, vis),
      path: () => "/api/organization_roles",
      body: (w, o: OrgWorld) => ({ organization_roles: { roles: ["tester"], links: { organization: String(o.organization.id), user: String(w.cast.members.expert.user.id) } } }),
      unchanged: (w, o: OrgWorld) => db().organizationRole.count({ where: { organizationId: o.organization.id, userId: w.cast.members.expert.user.id } }),
    },
    {
      name: `/api/organization_roles/:id ${on(vis)} (the tester's role)`,
      method: "PUT",
      // Only editors change roles; the tester may not promote themself; the role is invisible to the others.
      expect: only(ORG_EDITORS, 200, 404, { anonymous: 401, tester: 403 }),
      fresh: (w) => freshOrganization(w, vis),
      path: (_w, o: OrgWorld) => `/api/organization_roles/${o.roles.tester.id}`,
      body: () => ({ organization_roles: { roles: ["collaborator"] } }),
      unchanged: (_w, o: OrgWorld) => db().organizationRole.findUnique({ where: { id: o.roles.tester.id } }),
    },
  ]),
];

const projectPageRows: Row[] = VIS.flatMap((vis): Row[] => [
  {
    name: `/api/projects/:id/pages (${vis} project)`,
    method: "GET",
    expect: read(vis),
    path: (w) => `/api/projects/${w.projectPage[vis].project.id}/pages`,
    missing: () => ({ path: `/api/projects/${MISSING_ID}/pages` }),
  },
  {
    name: `/api/projects/:id/pages/:page_id (${vis} project)`,
    method: "GET",
    expect: read(vis),
    path: (w) => `/api/projects/${w.projectPage[vis].project.id}/pages/${w.projectPage[vis].page.id}`,
  },
  {
    name: `/api/projects/:id/pages (${vis} project)`,
    method: "POST",
    expect: write(vis, 201),
    fresh: async () => ({ key: `science_${uid()}` }),
    path: (w) => `/api/projects/${w.projectPage[vis].project.id}/pages`,
    body: (_w, f) => ({ project_pages: { url_key: f.key, title: "Science", language: "en", content: "Why" } }),
    unchanged: (_w, f) => db().projectPage.count({ where: { urlKey: f.key } }),
  },
  {
    name: `/api/projects/:id/pages (${vis} project, in a language other than the primary one)`,
    method: "POST",
    // Translators write the project's other languages.
    expect: { ...write(vis, 201), translator: 201 },
    fresh: async () => ({ key: `science_${uid()}` }),
    path: (w) => `/api/projects/${w.projectPage[vis].project.id}/pages`,
    body: (_w, f) => ({ project_pages: { url_key: f.key, title: "Science", language: "fr", content: "Pourquoi" } }),
    unchanged: (_w, f) => db().projectPage.count({ where: { urlKey: f.key } }),
  },
  {
    name: `/api/projects/:id/pages/:page_id (${vis} project)`,
    method: "PUT",
    expect: write(vis, 200),
    fresh: async (w) => createProjectPage(w.projectPage[vis].project.id, { urlKey: `p_${uid()}` }),
    path: (w, p: ProjectPage) => `/api/projects/${w.projectPage[vis].project.id}/pages/${p.id}`,
    body: () => ({ project_pages: { content: `Changed ${uid()}` } }),
    unchanged: (_w, p: ProjectPage) => db().projectPage.findUnique({ where: { id: p.id } }),
  },
  {
    name: `/api/projects/:id/pages/:page_id (${vis} project)`,
    method: "DELETE",
    expect: write(vis, 204),
    fresh: async (w) => createProjectPage(w.projectPage[vis].project.id, { urlKey: `p_${uid()}` }),
    path: (w, p: ProjectPage) => `/api/projects/${w.projectPage[vis].project.id}/pages/${p.id}`,
    unchanged: (_w, p: ProjectPage) => db().projectPage.findUnique({ where: { id: p.id } }),
  },
]);

authorizationMatrix("authorization matrix: community resources", setup, [...organizationRows, ...projectPageRows]);
