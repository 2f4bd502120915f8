import { db } from "@/lib/db";
import type {
  Aggregation,
  Collection,
  FieldGuide,
  Membership,
  Organization,
  OrganizationPage,
  OrganizationRole,
  Project,
  ProjectPage,
  Tutorial,
  UserGroup,
  Workflow,
} from "@/lib/generated/prisma/client";
import { mediumType } from "@/lib/resources/media";
import { createWorkflow, uid } from "@/test/factories";
import { createFieldGuide, createTutorial } from "@/test/factories-project-content";
import { createCollection, grantCollectionRole } from "@/test/factories-collections";
import { createOrganization, createOrganizationPage, createProjectPage } from "@/test/factories-organizations";
import {
  ACTORS,
  authorizationMatrix,
  EDITORS,
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
} from "@/test/authorization-matrix";

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
interface ProjectContent {
  project: Project;
  page: ProjectPage;
  workflow: Workflow;
  guide: FieldGuide;
  tutorial: Tutorial;
  /** The owner's aggregation run of the workflow: for the project's editors only. */
  aggregation: Aggregation;
}
interface GroupWorld {
  group: UserGroup;
  /** The tester's membership (an active member). */
  testerMembership: Membership;
}
interface World extends MatrixWorld {
  org: Record<Visibility, OrgWorld>;
  /** Pages, a field guide, a tutorial and an aggregation run of a public and of a private project. */
  projectPage: Record<Visibility, ProjectContent>;
  group: Record<Visibility, GroupWorld>;
  collection: Record<Visibility, CollectionWorld>;
}
type Row = MatrixRow<World, any>;

async function castOrganization(cast: Cast, listed: boolean): Promise<OrgWorld> {
  const organization = await createOrganization(cast.members.owner.user.id, { listed, displayName: `Matrix org ${uid()}` });
  const roles = {
    owner: await db().organizationRole.findFirstOrThrow({ where: { organizationId: organization.id } }),
  } as OrgWorld["roles"];
  for (const r of ORG_ROLE_ACTORS)
    roles[r] = await db().organizationRole.create({
      data: { organizationId: organization.id, userId: cast.members[r].user.id, roles: [r] },
    });
  const page = await createOrganizationPage(organization.id, { title: `Org page ${uid()}` });
  return { organization, roles, page };
}

/** A fresh organization of the cast (public or not) for a write that changes or removes it. */
async function freshOrganization(w: World, vis: Visibility): Promise<OrgWorld> {
  return castOrganization(w.cast, vis === "public");
}

// On a collection the cast's owner owns it, the collaborator is a collaborator, the scientist a
// contributor (adds subjects), the tester a viewer; the others hold no role.
const COLLECTION_EDITORS: readonly ActorName[] = ["owner", "collaborator", "admin"];
const COLLECTION_VIEWERS: readonly ActorName[] = [...COLLECTION_EDITORS, "scientist", "tester"];
interface CollectionWorld {
  collection: Collection;
  /** A subject of a public project, in the collection. */
  subjectId: number;
  viewerRoleId: number;
}

async function castCollection(cast: Cast, isPrivate: boolean, subjectId: number): Promise<CollectionWorld> {
  const collection = await createCollection(
    { userId: cast.members.owner.user.id },
    { private: isPrivate, displayName: `Matrix collection ${uid()}`, subjectIds: [subjectId] },
  );
  await grantCollectionRole(collection.id, cast.members.collaborator.user.id, ["collaborator"]);
  await grantCollectionRole(collection.id, cast.members.scientist.user.id, ["contributor"]);
  const viewer = await grantCollectionRole(collection.id, cast.members.tester.user.id, ["viewer"]);
  return { collection, subjectId, viewerRoleId: viewer.id };
}

// On a user group the cast's owner and collaborator are group admins, the tester, scientist, moderator and
// translator active members, the expert invited (not yet a member).
const GROUP_ADMINS: readonly ActorName[] = ["owner", "collaborator", "admin"];
const GROUP_MEMBERS: readonly ActorName[] = [...GROUP_ADMINS, "tester", "scientist", "moderator", "translator"];

async function castGroup(cast: Cast, isPrivate: boolean): Promise<GroupWorld> {
  const group = await db().userGroup.create({
    data: { name: `matrix_${uid()}`, displayName: `Matrix group ${uid()}`, private: isPrivate, joinToken: `tok${uid()}${uid()}` },
  });
  const member = (a: ActorName, state: string, roles: string[]) =>
    db().membership.create({
      data: { userGroupId: group.id, userId: cast.members[a as Exclude<ActorName, "anonymous">].user.id, state, roles },
    });
  for (const a of ["owner", "collaborator"] as const) await member(a, "active", ["group_admin"]);
  const memberships = {} as Record<string, Membership>;
  for (const a of ["tester", "scientist", "moderator", "translator"] as const) memberships[a] = await member(a, "active", ["group_member"]);
  await member("expert", "invited", ["group_member"]);
  return { group, testerMembership: memberships.tester };
}

async function setup(): Promise<World> {
  const cast = await createCast();
  const org = { public: await castOrganization(cast, true), private: await castOrganization(cast, false) };
  const projectPage = {} as World["projectPage"];
  const group = {} as World["group"];
  for (const vis of VIS) {
    const project = await castProject(cast, { private: vis === "private" });
    const workflow = await createWorkflow(project.id);
    projectPage[vis] = {
      project,
      workflow,
      page: await createProjectPage(project.id, { title: `Project page ${uid()}` }),
      guide: await createFieldGuide(project.id, { items: [{ title: `Guide item ${uid()}`, content: "c" }] }),
      tutorial: await createTutorial(project.id, { displayName: `Tutorial ${uid()}`, workflowIds: [workflow.id] }),
      aggregation: await db().aggregation.create({
        data: { workflowId: workflow.id, projectId: project.id, userId: cast.members.owner.user.id, taskId: `task${uid()}` },
      }),
    };
    group[vis] = await castGroup(cast, vis === "private");
  }
  const subject = await db().subject.create({
    data: { projectId: projectPage.public.project.id, locations: [{ "image/png": "https://example.test/c.png" }] },
  });
  const collection = { public: await castCollection(cast, false, subject.id), private: await castCollection(cast, true, subject.id) };
  const secrets: Secret[] = [
    { label: "the unlisted organization's name", text: org.private.organization.displayName, visibleTo: ORG_VIEWERS },
    { label: "the unlisted organization's page", text: org.private.page.title, visibleTo: ORG_VIEWERS },
    { label: "the private project's page", text: projectPage.private.page.title, visibleTo: VIEWERS },
    {
      label: "the private project's field guide",
      text: (projectPage.private.guide.items as { title: string }[])[0].title,
      visibleTo: VIEWERS,
    },
    { label: "the private project's tutorial", text: projectPage.private.tutorial.displayName, visibleTo: VIEWERS },
    { label: "the public project's aggregation task", text: projectPage.public.aggregation.taskId!, visibleTo: EDITORS },
    { label: "the private project's aggregation task", text: projectPage.private.aggregation.taskId!, visibleTo: EDITORS },
    { label: "the private group's name", text: group.private.group.name, visibleTo: GROUP_MEMBERS },
    ...VIS.map((vis) => ({ label: `the ${vis} group's join token`, text: group[vis].group.joinToken, visibleTo: GROUP_ADMINS })),
  ];
  secrets.push({ label: "the private collection's name", text: collection.private.collection.displayName, visibleTo: COLLECTION_VIEWERS });
  return { cast, secrets, org, projectPage, group, collection };
}

/** Reads for an organization's records: 404 to outsiders when unlisted. */
const orgRead = (vis: Visibility) => (vis === "public" ? statuses(200) : only(ORG_VIEWERS, 200, 404));
/** Writes on an organization: editors; others who see it 403; outsiders of an unlisted one 404. */
const orgWrite = (vis: Visibility, ok: number) =>
  only(ORG_EDITORS, ok, vis === "public" ? 403 : 404, {
    anonymous: 401,
    ...(vis === "public" ? {} : Object.fromEntries(["tester", "scientist", "moderator", "translator"].map((a) => [a, 403]))),
  });

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
    listed: {
      key: "organizations",
      records: (w) => [{ label: "the unlisted organization", id: w.org.private.organization.id, visibleTo: ORG_VIEWERS }],
    },
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
      unchanged: (_w, o: OrgWorld) =>
        db().medium.count({
          where: { linkedType: "organizations", linkedId: o.organization.id, type: mediumType("organizations", "avatar") },
        }),
    },
    {
      name: `/api/organization_roles?organization_id= ${on(vis)}`,
      method: "GET",
      expect: statuses(200),
      path: (w) => `/api/organization_roles?organization_id=${w.org[vis].organization.id}&page_size=100`,
      listed: {
        key: "organization_roles",
        // A role record: its holder, the organization's editors, admins.
        records: (w) =>
          Object.entries(w.org[vis].roles).map(([holder, role]) => ({
            label: `${holder}'s role`,
            id: role.id,
            visibleTo: [...new Set<ActorName>([holder as ActorName, ...ORG_EDITORS])],
          })),
      },
    },
    {
      name: `/api/organization_roles ${on(vis)} (give the expert a role)`,
      method: "POST",
      expect: orgWrite(vis, 201),
      fresh: (w) => freshOrganization(w, vis),
      path: () => "/api/organization_roles",
      body: (w, o: OrgWorld) => ({
        organization_roles: {
          roles: ["tester"],
          links: { organization: String(o.organization.id), user: String(w.cast.members.expert.user.id) },
        },
      }),
      unchanged: (w, o: OrgWorld) =>
        db().organizationRole.count({ where: { organizationId: o.organization.id, userId: w.cast.members.expert.user.id } }),
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

/** A project of the cast with a workflow, for writes that need their own (one run per user and workflow, one guide per language). */
async function freshContent(w: World, vis: Visibility) {
  const project = await castProject(w.cast, { private: vis === "private" });
  const workflow = await createWorkflow(project.id);
  return {
    project,
    workflow,
    guide: await createFieldGuide(project.id),
    tutorial: await createTutorial(project.id, { workflowIds: [workflow.id] }),
  };
}
type Content = Awaited<ReturnType<typeof freshContent>>;
const HEX32 = "0123456789abcdef0123456789abcdef";

const contentRows: Row[] = [
  {
    name: "/api/field_guides?project_id= (both projects)",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/field_guides?project_id=${w.projectPage.public.project.id},${w.projectPage.private.project.id}`,
    listed: {
      key: "field_guides",
      records: (w) => [
        { label: "the public project's guide", id: w.projectPage.public.guide.id, visibleTo: ACTORS },
        { label: "the private project's guide", id: w.projectPage.private.guide.id, visibleTo: VIEWERS },
      ],
    },
  },
  {
    name: "/api/tutorials?workflow_id= (the private project's workflow)",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/tutorials?workflow_id=${w.projectPage.private.workflow.id}`,
    listed: {
      key: "tutorials",
      records: (w) => [{ label: "the private project's tutorial", id: w.projectPage.private.tutorial.id, visibleTo: VIEWERS }],
    },
  },
  ...VIS.map(
    (vis): Row => ({
      name: `/api/aggregations?project_id= (${vis} project)`,
      method: "GET",
      expect: statuses(200),
      path: (w) => `/api/aggregations?project_id=${w.projectPage[vis].project.id}`,
      listed: {
        key: "aggregations",
        records: (w) => [{ label: `the ${vis} project's run`, id: w.projectPage[vis].aggregation.id, visibleTo: EDITORS }],
      },
    }),
  ),
  ...VIS.flatMap((vis): Row[] => [
    {
      name: `/api/field_guides/:id (${vis} project)`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/field_guides/${w.projectPage[vis].guide.id}`,
      missing: () => ({ path: `/api/field_guides/${MISSING_ID}` }),
    },
    {
      name: `/api/field_guides (${vis} project, its primary language)`,
      method: "POST",
      expect: write(vis, 201),
      fresh: async (w) => ({ project: await castProject(w.cast, { private: vis === "private" }) }),
      path: () => "/api/field_guides",
      body: (_w, f: { project: Project }) => ({
        field_guides: { language: "en", items: [{ title: "Zebra", content: "Stripes" }], links: { project: String(f.project.id) } },
      }),
      unchanged: (_w, f: { project: Project }) => db().fieldGuide.count({ where: { projectId: f.project.id } }),
    },
    {
      name: `/api/field_guides/:id (${vis} project)`,
      method: "PUT",
      expect: write(vis, 200),
      fresh: (w) => freshContent(w, vis),
      path: (_w, f: Content) => `/api/field_guides/${f.guide.id}`,
      body: () => ({ field_guides: { items: [{ title: "Changed", content: "" }] } }),
      unchanged: (_w, f: Content) => db().fieldGuide.findUnique({ where: { id: f.guide.id } }),
    },
    {
      name: `/api/field_guides/:id (${vis} project)`,
      method: "DELETE",
      expect: write(vis, 204),
      fresh: (w) => freshContent(w, vis),
      path: (_w, f: Content) => `/api/field_guides/${f.guide.id}`,
      unchanged: (_w, f: Content) => db().fieldGuide.findUnique({ where: { id: f.guide.id } }),
    },
    {
      name: `/api/tutorials/:id (${vis} project)`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/tutorials/${w.projectPage[vis].tutorial.id}?include=workflows`,
      missing: () => ({ path: `/api/tutorials/${MISSING_ID}` }),
    },
    {
      name: `/api/tutorials (${vis} project)`,
      method: "POST",
      expect: write(vis, 201),
      fresh: (w) => freshContent(w, vis),
      path: () => "/api/tutorials",
      body: (_w, f: Content) => ({
        tutorials: {
          language: "en",
          kind: "mini-course",
          steps: [{ content: "Hello" }],
          links: { project: String(f.project.id), workflows: [String(f.workflow.id)] },
        },
      }),
      unchanged: (_w, f: Content) => db().tutorial.count({ where: { projectId: f.project.id } }),
    },
    {
      name: `/api/tutorials/:id (${vis} project)`,
      method: "PUT",
      expect: write(vis, 200),
      fresh: (w) => freshContent(w, vis),
      path: (_w, f: Content) => `/api/tutorials/${f.tutorial.id}`,
      body: () => ({ tutorials: { display_name: `Renamed ${uid()}` } }),
      unchanged: (_w, f: Content) => db().tutorial.findUnique({ where: { id: f.tutorial.id } }),
    },
    {
      name: `/api/tutorials/:id (${vis} project)`,
      method: "DELETE",
      expect: write(vis, 204),
      fresh: (w) => freshContent(w, vis),
      path: (_w, f: Content) => `/api/tutorials/${f.tutorial.id}`,
      unchanged: (_w, f: Content) => db().tutorial.findUnique({ where: { id: f.tutorial.id } }),
    },
    {
      name: `/api/aggregations/:id (${vis} project)`,
      method: "GET",
      expect: only(EDITORS, 200, 404),
      path: (w) => `/api/aggregations/${w.projectPage[vis].aggregation.id}`,
      missing: () => ({ path: `/api/aggregations/${MISSING_ID}` }),
    },
    {
      name: `/api/aggregations (${vis} project, a run for oneself)`,
      method: "POST",
      expect: write(vis, 201),
      fresh: (w) => freshContent(w, vis),
      path: () => "/api/aggregations",
      body: (w, f: Content, actor) => ({
        aggregations: { links: { user: String(w.cast.user(actor)?.id ?? w.cast.members.owner.user.id), workflow: String(f.workflow.id) } },
      }),
      unchanged: (_w, f: Content) => db().aggregation.count({ where: { workflowId: f.workflow.id } }),
    },
    {
      // The aggregation service reports a finished run; a run is for its project's editors only.
      name: `/api/aggregations/:id (${vis} project, completed)`,
      method: "PUT",
      expect: only(EDITORS, 200, 404, { anonymous: 401 }),
      fresh: async (w) => {
        const c = await freshContent(w, vis);
        return db().aggregation.create({
          data: {
            workflowId: c.workflow.id,
            projectId: c.project.id,
            userId: w.cast.members.owner.user.id,
            status: "pending",
            taskId: "t",
          },
        });
      },
      path: (_w, a: Aggregation) => `/api/aggregations/${a.id}`,
      body: () => ({ aggregations: { status: "completed", uuid: HEX32 } }),
      unchanged: (_w, a: Aggregation) => db().aggregation.findUnique({ where: { id: a.id } }),
    },
    {
      name: `/api/aggregations/:id (${vis} project)`,
      method: "DELETE",
      expect: only(EDITORS, 204, 404, { anonymous: 401 }),
      fresh: async (w) => {
        const c = await freshContent(w, vis);
        return db().aggregation.create({
          data: { workflowId: c.workflow.id, projectId: c.project.id, userId: w.cast.members.owner.user.id },
        });
      },
      path: (_w, a: Aggregation) => `/api/aggregations/${a.id}`,
      unchanged: (_w, a: Aggregation) => db().aggregation.findUnique({ where: { id: a.id } }),
    },
  ]),
];

const groupRead = (vis: Visibility) => (vis === "public" ? statuses(200) : only(GROUP_MEMBERS, 200, 404));
/** Group admins write; members who see it 403; outsiders of a private group 404. */
const groupWrite = (vis: Visibility, ok: number) =>
  only(GROUP_ADMINS, ok, vis === "public" ? 403 : 404, {
    anonymous: 401,
    ...(vis === "private" ? { tester: 403, scientist: 403, moderator: 403, translator: 403 } : {}),
  });

const groupRows: Row[] = VIS.flatMap((vis): Row[] => [
  {
    name: `/api/user_groups/:id (${vis} group)`,
    method: "GET",
    expect: groupRead(vis),
    path: (w) => `/api/user_groups/${w.group[vis].group.id}?include=memberships,users`,
    missing: () => ({ path: `/api/user_groups/${MISSING_ID}` }),
  },
  {
    name: `/api/user_groups/:id (${vis} group)`,
    method: "PUT",
    expect: groupWrite(vis, 200),
    fresh: (w) => castGroup(w.cast, vis === "private"),
    path: (_w, g: GroupWorld) => `/api/user_groups/${g.group.id}`,
    body: () => ({ user_groups: { display_name: `Renamed ${uid()}` } }),
    unchanged: (_w, g: GroupWorld) => db().userGroup.findUnique({ where: { id: g.group.id } }),
  },
  {
    name: `/api/user_groups/:id (${vis} group)`,
    method: "DELETE",
    expect: groupWrite(vis, 204),
    fresh: (w) => castGroup(w.cast, vis === "private"),
    path: (_w, g: GroupWorld) => `/api/user_groups/${g.group.id}`,
    unchanged: (_w, g: GroupWorld) => db().userGroup.findUnique({ where: { id: g.group.id } }),
  },
  {
    name: `/api/user_groups/:id/links/users (${vis} group, invite the stranger)`,
    method: "POST",
    expect: groupWrite(vis, 200),
    fresh: (w) => castGroup(w.cast, vis === "private"),
    path: (_w, g: GroupWorld) => `/api/user_groups/${g.group.id}/links/users`,
    body: (w) => ({ users: [String(w.cast.members.stranger.user.id)] }),
    unchanged: (w, g: GroupWorld) => db().membership.count({ where: { userGroupId: g.group.id, userId: w.cast.members.stranger.user.id } }),
  },
  {
    name: `/api/memberships?user_group_id= (${vis} group)`,
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/memberships?user_group_id=${w.group[vis].group.id}&page_size=100`,
    listed: {
      key: "memberships",
      records: (w) => [
        { label: "the tester's membership", id: w.group[vis].testerMembership.id, visibleTo: vis === "public" ? ACTORS : GROUP_MEMBERS },
      ],
    },
  },
  {
    name: `/api/memberships/:id (${vis} group, the tester's, made group_admin)`,
    method: "PUT",
    // Group admins change roles; the tester and other members may not (403); outsiders of a private group see nothing.
    expect: groupWrite(vis, 200),
    fresh: (w) => castGroup(w.cast, vis === "private"),
    path: (_w, g: GroupWorld) => `/api/memberships/${g.testerMembership.id}`,
    body: () => ({ memberships: { roles: ["group_admin"] } }),
    unchanged: (_w, g: GroupWorld) => db().membership.findUnique({ where: { id: g.testerMembership.id } }),
  },
  {
    name: `/api/memberships (${vis} group, joining with its token)`,
    method: "POST",
    expect: statuses(201, { anonymous: 401 }),
    fresh: (w) => castGroup(w.cast, vis === "private"),
    path: () => "/api/memberships",
    body: (w, g: GroupWorld, actor) => ({
      memberships: {
        join_token: g.group.joinToken,
        links: { user: String(w.cast.user(actor)?.id ?? w.cast.members.stranger.user.id), user_group: String(g.group.id) },
      },
    }),
    unchanged: (_w, g: GroupWorld) => db().membership.count({ where: { userGroupId: g.group.id, state: "active" } }),
  },
]);

const collectionRead = (vis: Visibility) => (vis === "public" ? statuses(200) : only(COLLECTION_VIEWERS, 200, 404));
/** Collection editors write; others who see it 403; outsiders of a private one 404. */
const collectionWrite = (vis: Visibility, ok: number, also: readonly ActorName[] = []) =>
  only([...COLLECTION_EDITORS, ...also], ok, vis === "public" ? 403 : 404, {
    anonymous: 401,
    ...(vis === "private"
      ? Object.fromEntries(COLLECTION_VIEWERS.filter((a) => !COLLECTION_EDITORS.includes(a) && !also.includes(a)).map((a) => [a, 403]))
      : {}),
  });
const freshCollection = (vis: Visibility) => (w: World) => castCollection(w.cast, vis === "private", w.collection.public.subjectId);

const collectionRows: Row[] = [
  {
    name: "/api/collections?owner= (the owner's collections)",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/collections?owner=${w.cast.members.owner.user.login}&page_size=100`,
    listed: {
      key: "collections",
      records: (w) => [
        { label: "the public collection", id: w.collection.public.collection.id, visibleTo: ACTORS },
        { label: "the private collection", id: w.collection.private.collection.id, visibleTo: COLLECTION_VIEWERS },
      ],
    },
  },
  {
    name: "/api/subjects?collection_id= (the private collection)",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/subjects?collection_id=${w.collection.private.collection.id}`,
    listed: {
      key: "subjects",
      records: (w) => [{ label: "the private collection's subject", id: w.collection.private.subjectId, visibleTo: COLLECTION_VIEWERS }],
    },
  },
  {
    name: "/api/collections",
    method: "POST",
    expect: signedIn(201),
    fresh: async () => ({ name: `Created collection ${uid()}` }),
    path: () => "/api/collections",
    body: (_w, f) => ({ collections: { display_name: f.name, private: true } }),
    unchanged: (_w, f) => db().collection.count({ where: { displayName: f.name } }),
  },
  ...VIS.flatMap((vis): Row[] => [
    {
      name: `/api/collections/:id (${vis} collection)`,
      method: "GET",
      expect: collectionRead(vis),
      path: (w) => `/api/collections/${w.collection[vis].collection.id}?include=owner,collection_roles,subjects`,
      missing: () => ({ path: `/api/collections/${MISSING_ID}` }),
    },
    {
      name: `/api/collections/:id (${vis} collection)`,
      method: "PUT",
      expect: collectionWrite(vis, 200),
      fresh: freshCollection(vis),
      path: (_w, c: CollectionWorld) => `/api/collections/${c.collection.id}`,
      body: () => ({ collections: { description: `Changed ${uid()}` } }),
      unchanged: (_w, c: CollectionWorld) => db().collection.findUnique({ where: { id: c.collection.id } }),
    },
    {
      name: `/api/collections/:id (${vis} collection)`,
      method: "DELETE",
      expect: collectionWrite(vis, 204),
      fresh: freshCollection(vis),
      path: (_w, c: CollectionWorld) => `/api/collections/${c.collection.id}`,
      unchanged: (_w, c: CollectionWorld) => db().collection.findUnique({ where: { id: c.collection.id } }),
    },
    {
      name: `/api/collections/:id/links/subjects (${vis} collection, add a subject)`,
      method: "POST",
      // Contributors add subjects too.
      expect: collectionWrite(vis, 200, ["scientist"]),
      fresh: async (w) => ({
        c: await freshCollection(vis)(w),
        subject: await db().subject.create({ data: { projectId: w.projectPage.public.project.id, locations: [] } }),
      }),
      path: (_w, f: { c: CollectionWorld }) => `/api/collections/${f.c.collection.id}/links/subjects`,
      body: (_w, f: { subject: { id: number } }) => ({ subjects: [String(f.subject.id)] }),
      unchanged: (_w, f: { c: CollectionWorld }) => db().collectionSubject.count({ where: { collectionId: f.c.collection.id } }),
    },
    {
      name: `/api/collections/:id/links/subjects/:ids (${vis} collection, remove the subject)`,
      method: "DELETE",
      expect: collectionWrite(vis, 204),
      fresh: freshCollection(vis),
      path: (_w, c: CollectionWorld) => `/api/collections/${c.collection.id}/links/subjects/${c.subjectId}`,
      unchanged: (_w, c: CollectionWorld) => db().collectionSubject.count({ where: { collectionId: c.collection.id } }),
    },
    {
      name: `/api/collection_roles?collection_id= (${vis} collection)`,
      method: "GET",
      expect: statuses(200),
      path: (w) => `/api/collection_roles?collection_id=${w.collection[vis].collection.id}&page_size=100`,
      // The viewer's role record: its holder and the collection's editors.
      listed: {
        key: "collection_roles",
        records: (w) => [{ label: "the viewer's role", id: w.collection[vis].viewerRoleId, visibleTo: ["tester", ...COLLECTION_EDITORS] }],
      },
    },
    {
      name: `/api/collection_roles (${vis} collection, give the expert a viewer role)`,
      method: "POST",
      expect: collectionWrite(vis, 201),
      fresh: freshCollection(vis),
      path: () => "/api/collection_roles",
      body: (w, c: CollectionWorld) => ({
        collection_roles: {
          roles: ["viewer"],
          links: { collection: String(c.collection.id), user: String(w.cast.members.expert.user.id) },
        },
      }),
      unchanged: (w, c: CollectionWorld) =>
        db().collectionRole.count({ where: { collectionId: c.collection.id, userId: w.cast.members.expert.user.id } }),
    },
    {
      name: `/api/collection_preferences (${vis} collection)`,
      method: "POST",
      // Anyone who sees the collection keeps their own preferences of it.
      expect: vis === "public" ? signedIn(201) : only(COLLECTION_VIEWERS, 201, 404, { anonymous: 401 }),
      fresh: freshCollection(vis),
      path: () => "/api/collection_preferences",
      body: (_w, c: CollectionWorld) => ({
        collection_preferences: { preferences: { display: "grid" }, links: { collection: String(c.collection.id) } },
      }),
      unchanged: (_w, c: CollectionWorld) => db().collectionPreference.count({ where: { collectionId: c.collection.id } }),
    },
  ]),
];

authorizationMatrix("authorization matrix: community resources", setup, [
  ...organizationRows,
  ...projectPageRows,
  ...contentRows,
  ...groupRows,
  ...collectionRows,
]);
