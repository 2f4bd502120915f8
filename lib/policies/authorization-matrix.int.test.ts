import { expect } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type {
  BackgroundJob,
  Classification,
  Medium,
  Project,
  ProjectPreference,
  ProjectRole,
  Subject,
  SubjectSet,
  Workflow,
} from "@/lib/generated/prisma/client";
import { mediumType, type MediaName } from "@/lib/resources/media";
import { signedUrl } from "@/lib/storage/signed-urls";
import { storage } from "@/lib/storage/storage";
import { ACCEPT, call, type CallResult } from "@/test/http";
import { classificationBody, createProject, createSubjectSet, createUser, createWorkflow, tokenFor, uid } from "@/test/factories";
import {
  ACTORS,
  authorizationMatrix,
  castProject,
  createCast,
  EDITORS,
  MISSING_ID,
  only,
  read,
  READ_ONLY_ROLES,
  ROLE_ACTORS,
  signedIn,
  statuses,
  VIEWERS,
  write,
  writePublic,
  type ActorName,
  type Cast,
  type MatrixRow,
  type MatrixWorld,
  type Secret,
  type TestUser,
  type Visibility,
} from "@/test/authorization-matrix";

// Component A's authorization matrix: every endpoint and method that exists, for every actor (anonymous,
// a signed-in stranger, each project role, the owner, an admin), on a public and on a private project.
// The runner (test/authorization-matrix.ts) checks status, error body, secrets, read-back after refusals,
// "hidden answers as missing" and list membership for every case. To add a resource: create its records in
// a world (or extend this one), then add rows; `read`, `write`, `only` and `statuses` state who gets what.

interface ProjectWorld {
  vis: Visibility;
  project: Project;
  workflow: Workflow;
  set: SubjectSet;
  subjects: Subject[];
  /** A complete classification by a volunteer without a role: visible to the project's editors only. */
  classification: Classification;
  /** A gold-standard classification of the workflow, whose gold standard is public. */
  gold: Classification;
  /** Every role record of the project, by holder. */
  roles: Record<"owner" | (typeof ROLE_ACTORS)[number], ProjectRole>;
  /** The tester's preference: visible to the tester (and admins) only. */
  preference: ProjectPreference;
  jobs: { classifications_export: BackgroundJob; subjects_export: BackgroundJob; workflow: BackgroundJob };
  media: Record<"avatar" | "background" | "attached_images", Medium>;
}

interface World extends MatrixWorld {
  public: ProjectWorld;
  private: ProjectWorld;
  /** Classifies on both projects and holds no role. */
  volunteer: TestUser;
  /** The stranger's preference on the private project (kept from a role since lost). */
  strangerPreference: ProjectPreference;
  userMedia: Record<"avatar" | "profile_header", Medium>;
  exportKey: string;
}

const PROJECT_MEDIA = ["avatar", "background"] as const;
const USER_MEDIA = ["avatar", "profile_header"] as const;

async function addMedium(linkedType: string, linkedId: number, name: MediaName, src = `https://example.test/${uid()}.png`) {
  return db().medium.create({
    data: { type: mediumType(linkedType, name), linkedType, linkedId, contentType: "image/png", src, externalLink: true, metadata: {} },
  });
}

async function classify(
  w: { project: Project; workflow: Workflow; subjects: Subject[] },
  userId: number | null,
  data: { completed?: boolean; goldStandard?: boolean; marker?: string } = {},
) {
  return db().classification.create({
    data: {
      projectId: w.project.id,
      workflowId: w.workflow.id,
      userId,
      subjectIds: [w.subjects[0].id],
      annotations: [{ task: "T0", value: data.marker ?? 0 }],
      metadata: {},
      completed: data.completed ?? true,
      goldStandard: data.goldStandard ?? null,
      workflowVersion: `${w.workflow.majorVersion}.${w.workflow.minorVersion}`,
    },
  });
}

async function projectWorld(cast: Cast, volunteer: TestUser, vis: Visibility, secrets: Secret[]): Promise<ProjectWorld> {
  const tag = uid();
  const secret = (label: string, text: string, visibleTo: readonly ActorName[]) => {
    secrets.push({ label: `${label} of the ${vis} project`, text, visibleTo });
    return text;
  };
  // Names of a private project's records are for those who see it; on a public one they are public.
  const hidden = vis === "private" ? VIEWERS : ACTORS;
  const project = await castProject(cast, { private: vis === "private", displayName: secret("the name", `Matrix ${vis} ${tag}`, hidden) });
  const workflow = await createWorkflow(project.id, { configuration: { public_gold_standard: true } });
  await db().workflow.update({
    where: { id: workflow.id },
    data: { displayName: secret("the workflow name", `Wf ${vis} ${tag}`, hidden) },
  });
  const subjectMarker = secret("subject metadata", `subj-${vis}-${tag}`, hidden);
  const { set, subjects } = await createSubjectSet(project.id, 3, {
    workflowIds: [workflow.id],
    metadata: (i) => ({ secret: subjectMarker, n: String(i) }),
  });
  await db().subjectSet.update({
    where: { id: set.id },
    data: { displayName: secret("the subject set name", `Set ${vis} ${tag}`, hidden) },
  });
  const records = { project, workflow, subjects };
  const classification = await classify(records, volunteer.id, {
    marker: secret("a volunteer's annotation", `anno-${vis}-${tag}`, EDITORS),
  });
  const gold = await classify(records, volunteer.id, { goldStandard: true });
  const roleRows = await db().projectRole.findMany({ where: { projectId: project.id } });
  const byUser = new Map(roleRows.map((r) => [r.userId, r]));
  const roles = Object.fromEntries(
    (["owner", ...ROLE_ACTORS] as const).map((a) => [a, byUser.get(cast.members[a].user.id)!]),
  ) as ProjectWorld["roles"];
  const preference = await db().projectPreference.create({
    data: {
      userId: cast.members.tester.user.id,
      projectId: project.id,
      preferences: { note: secret("the tester's preferences", `pref-${vis}-${tag}`, ["tester", "admin"]) },
    },
  });
  const job = (kind: string, params: object) =>
    db().backgroundJob.create({ data: { kind, projectId: project.id, userId: cast.members.owner.user.id, params } });
  const jobs = {
    classifications_export: await job("classifications_export", { project_id: project.id }),
    subjects_export: await job("subjects_export", { project_id: project.id }),
    workflow: await job("classifications_export", { workflow_id: workflow.id }),
  };
  const media = {
    avatar: await addMedium(
      "projects",
      project.id,
      "avatar",
      `https://example.test/${secret("the avatar", `avatar-${vis}-${tag}`, hidden)}.png`,
    ),
    background: await addMedium(
      "projects",
      project.id,
      "background",
      `https://example.test/${secret("the background", `bg-${vis}-${tag}`, hidden)}.png`,
    ),
    attached_images: await addMedium(
      "projects",
      project.id,
      "attached_images",
      `https://example.test/${secret("an attached image", `att-${vis}-${tag}`, hidden)}.png`,
    ),
  };
  return { vis, project, workflow, set, subjects, classification, gold, roles, preference, jobs, media };
}

async function setup(): Promise<World> {
  const cast = await createCast();
  const volunteer = await createUser();
  const secrets: Secret[] = [];
  const [pub, priv] = await Promise.all([
    projectWorld(cast, volunteer, "public", secrets),
    projectWorld(cast, volunteer, "private", secrets),
  ]);
  const strangerPreference = await db().projectPreference.create({
    data: { userId: cast.members.stranger.user.id, projectId: priv.project.id, preferences: { note: `spref-${uid()}` } },
  });
  secrets.push({
    label: "the stranger's preferences",
    text: (strangerPreference.preferences as { note: string }).note,
    visibleTo: ["stranger", "admin"],
  });
  const tester = cast.members.tester.user.id;
  const userMedia = {
    avatar: await addMedium("users", tester, "avatar"),
    profile_header: await addMedium("users", tester, "profile_header"),
  };
  const exportKey = `exports/${priv.project.id}/matrix-${uid()}.csv`;
  await storage().putObject(exportKey, "classification_id\n1\n", { contentType: "text/csv; charset=utf-8" });
  return { cast, secrets, public: pub, private: priv, volunteer, strangerPreference, userMedia, exportKey };
}

// ---------------------------------------------------------------------------------------------------------
// Helpers for rows

type Row<F = any> = MatrixRow<World, F>;
const VIS: Visibility[] = ["public", "private"];
const on = (vis: Visibility) => `(${vis} project)`;
const userId = (w: World, a: ActorName) => w.cast.user(a)?.id ?? null;
/** The actor's own user id, or the tester's for anonymous (who has none: its request is refused anyway). */
const selfOrTester = (w: World, a: ActorName) => userId(w, a) ?? w.cast.members.tester.user.id;
/** For rows about one's own user record: anonymous aims at a fresh user, whom no other row changes. */
const selfOrFresh = async (w: World, a: ActorName) => ({ id: userId(w, a) ?? (await createUser()).id });

const freshProject = (w: World, vis: Visibility) => castProject(w.cast, { private: vis === "private" });
/** A public project of the actor's own (the stranger's for anonymous, whose request is refused anyway). */
const ownProject = (w: World, a: ActorName) => createProject(userId(w, a) ?? w.cast.members.stranger.user.id);
const freshWorkflow = (w: World, vis: Visibility) => createWorkflow(w[vis].project.id);
const freshSubject = (w: World, vis: Visibility) =>
  db().subject.create({
    data: { projectId: w[vis].project.id, metadata: { fresh: true }, locations: [{ "image/png": "https://example.test/f.png" }] },
  });
const exists = (model: "project" | "workflow" | "subjectSet" | "subject" | "projectRole" | "classification" | "medium", id: number) =>
  (db()[model] as unknown as { count(a: object): Promise<number> }).count({ where: { id } });
const mediaOf = (linkedType: string, linkedId: number) => db().medium.findMany({ where: { linkedType, linkedId }, orderBy: { id: "asc" } });
const jobsOf = (projectId: number) => db().backgroundJob.count({ where: { projectId } });
const linkedIds = (res: CallResult, type: string) =>
  ((res.body?.linked?.[type] ?? []) as { id: string }[]).map((r) => Number(r.id)).sort((a, b) => a - b);

/** Role records of a project an actor may see: their own, or all of a project they edit. */
function visibleRoleIds(_w: World, actor: ActorName, worlds: ProjectWorld[]): number[] {
  const ids: number[] = [];
  for (const pw of worlds) {
    if (pw.vis === "private" && !VIEWERS.includes(actor)) continue;
    // A public project's team is anyone's to read; a private project's roles the holder's and its editors'.
    for (const [holder, role] of Object.entries(pw.roles))
      if (pw.vis === "public" || EDITORS.includes(actor) || holder === actor) ids.push(role.id);
  }
  return ids.sort((a, b) => a - b);
}

/** Who may see the role record held by `holder`: on a public project anyone; else the holder, the project's editors, admins. */
const roleViewers = (holder: ActorName, vis: Visibility = "private"): ActorName[] =>
  vis === "public" ? [...ACTORS] : [...new Set<ActorName>([holder, ...EDITORS])];

// ---------------------------------------------------------------------------------------------------------
// Projects

const projectRows: Row[] = [
  {
    name: "/api/projects?owner= (the owner's projects)",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/projects?owner=${w.cast.members.owner.user.login}&sort=id&page_size=100`,
    listed: {
      key: "projects",
      records: (w) => [
        { label: "the public project", id: w.public.project.id, visibleTo: ACTORS },
        { label: "the private project", id: w.private.project.id, visibleTo: VIEWERS },
      ],
    },
  },
  {
    name: "/api/projects?search= (the private project's name)",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/projects?search=${encodeURIComponent(w.private.project.displayName)}`,
    listed: { key: "projects", records: (w) => [{ label: "the private project", id: w.private.project.id, visibleTo: VIEWERS }] },
  },
  {
    name: "/api/projects?id=&include=owners,project_roles",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/projects?id=${w.public.project.id},${w.private.project.id}&include=owners,project_roles`,
    listed: {
      key: "projects",
      records: (w) => [
        { label: "the public project", id: w.public.project.id, visibleTo: ACTORS },
        { label: "the private project", id: w.private.project.id, visibleTo: VIEWERS },
      ],
    },
    check: (res, w, _f, actor) => {
      expect(linkedIds(res, "project_roles"), `project roles included for ${actor}`).toEqual(
        visibleRoleIds(w, actor, [w.public, w.private]),
      );
      expect(linkedIds(res, "owners"), `owners included for ${actor}`).toEqual([w.cast.members.owner.user.id]);
    },
  },
  {
    name: "/api/projects",
    method: "POST",
    expect: signedIn(201),
    fresh: async () => ({ name: `Created ${uid()}` }),
    path: () => "/api/projects",
    body: (_w, f) => ({ projects: { display_name: f.name } }),
    unchanged: (_w, f) => db().project.count({ where: { displayName: f.name } }),
  },
  {
    name: "/api/projects/:id approved (admins only; public project)",
    method: "PUT",
    expect: statuses(403, { anonymous: 401, admin: 200 }),
    fresh: (w) => freshProject(w, "public"),
    path: (_w, p: Project) => `/api/projects/${p.id}`,
    body: () => ({ projects: { approved: true } }),
    unchanged: (_w, p: Project) => db().project.findUnique({ where: { id: p.id } }),
  },
  {
    // Linking a set of a project one does not edit is answered as linking one that does not exist.
    name: "/api/projects/:id/links/subject_sets (one's own project ← the private project's set)",
    method: "POST",
    expect: statuses(422, { anonymous: 401, collaborator: 200, owner: 200, admin: 200 }),
    indistinguishableFor: ["stranger", ...READ_ONLY_ROLES],
    fresh: (w, a) => ownProject(w, a),
    path: (_w, p: Project) => `/api/projects/${p.id}/links/subject_sets`,
    body: (w) => ({ subject_sets: [String(w.private.set.id)] }),
    missing: () => ({ body: { subject_sets: [String(MISSING_ID)] } }),
    unchanged: (_w, p: Project) => db().subjectSet.count({ where: { projectId: p.id } }),
  },
  ...VIS.flatMap((vis): Row[] => [
    {
      name: `/api/projects/:id ${on(vis)}`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/projects/${w[vis].project.id}`,
      missing: () => ({ path: `/api/projects/${MISSING_ID}` }),
    },
    {
      name: `/api/projects/:id?include=owners,project_roles ${on(vis)}`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/projects/${w[vis].project.id}?include=owners,project_roles`,
      missing: () => ({ path: `/api/projects/${MISSING_ID}?include=owners,project_roles` }),
      check: (res, w, _f, actor) => {
        if (res.status === 200)
          expect(linkedIds(res, "project_roles"), `project roles included for ${actor}`).toEqual(visibleRoleIds(w, actor, [w[vis]]));
      },
    },
    {
      name: `/api/projects/:id ${on(vis)}`,
      method: "PUT",
      expect: write(vis, 200),
      fresh: (w) => freshProject(w, vis),
      path: (_w, p: Project) => `/api/projects/${p.id}`,
      body: () => ({ projects: { display_name: `Renamed ${uid()}`, private: vis === "public" } }),
      unchanged: (_w, p: Project) => db().project.findUnique({ where: { id: p.id } }),
      missing: () => ({ path: `/api/projects/${MISSING_ID}` }),
    },
    {
      name: `/api/projects/:id ${on(vis)}`,
      method: "DELETE",
      expect: write(vis, 204),
      fresh: (w) => freshProject(w, vis),
      path: (_w, p: Project) => `/api/projects/${p.id}`,
      unchanged: (_w, p: Project) => exists("project", p.id),
      missing: () => ({ path: `/api/projects/${MISSING_ID}` }),
      check: async (res, _w, p: Project) => {
        if (res.status === 204) expect(await exists("project", p.id)).toBe(0);
      },
    },
    {
      name: `/api/projects/:id/links/subject_sets ${on(vis)}`,
      method: "POST",
      expect: write(vis, 200),
      fresh: (w) => freshProject(w, vis),
      path: (_w, p: Project) => `/api/projects/${p.id}/links/subject_sets`,
      body: (w) => ({ subject_sets: [String(w.public.set.id)] }),
      unchanged: (_w, p: Project) => db().subjectSet.count({ where: { projectId: p.id } }),
      missing: (_w) => ({ path: `/api/projects/${MISSING_ID}/links/subject_sets` }),
    },
    {
      name: `/api/projects/:id/links/subject_sets/:ids ${on(vis)}`,
      method: "DELETE",
      expect: write(vis, 204),
      fresh: async (w) => {
        const project = await freshProject(w, vis);
        return { project, set: (await createSubjectSet(project.id, 0)).set };
      },
      path: (_w, f: { project: Project; set: SubjectSet }) => `/api/projects/${f.project.id}/links/subject_sets/${f.set.id}`,
      unchanged: (_w, f: { set: SubjectSet }) => exists("subjectSet", f.set.id),
      missing: (_w, f: { set: SubjectSet }) => ({ path: `/api/projects/${MISSING_ID}/links/subject_sets/${f.set.id}` }),
    },
    ...(["classifications_export", "subjects_export"] as const).flatMap((kind): Row[] => [
      {
        name: `/api/projects/:id/${kind} ${on(vis)}`,
        method: "GET",
        expect: write(vis, 200),
        path: (w) => `/api/projects/${w[vis].project.id}/${kind}`,
        missing: () => ({ path: `/api/projects/${MISSING_ID}/${kind}` }),
        check: (res, w) => {
          if (res.status === 200)
            expect([res.body.media[0].id, res.body.linked.background_jobs[0].id]).toEqual([
              String(w[vis].jobs[kind].id),
              String(w[vis].jobs[kind].id),
            ]);
        },
      },
      {
        name: `/api/projects/:id/${kind} ${on(vis)}`,
        method: "POST",
        expect: write(vis, 201),
        fresh: (w) => freshProject(w, vis),
        path: (_w, p: Project) => `/api/projects/${p.id}/${kind}`,
        body: () => ({}),
        unchanged: (_w, p: Project) => jobsOf(p.id),
        missing: () => ({ path: `/api/projects/${MISSING_ID}/${kind}` }),
      },
    ]),
    ...PROJECT_MEDIA.flatMap((name): Row[] => [
      {
        name: `/api/projects/:id/${name} ${on(vis)}`,
        method: "GET",
        expect: read(vis),
        path: (w) => `/api/projects/${w[vis].project.id}/${name}`,
        missing: () => ({ path: `/api/projects/${MISSING_ID}/${name}` }),
        check: (res, w) => {
          if (res.status === 200) expect(res.body.media[0].id).toBe(String(w[vis].media[name].id));
        },
      },
      {
        name: `/api/projects/:id/${name} ${on(vis)}`,
        method: "POST",
        expect: write(vis, 201),
        fresh: (w) => freshProject(w, vis),
        path: (_w, p: Project) => `/api/projects/${p.id}/${name}`,
        body: () => ({ media: { content_type: "image/png", external_link: true, src: "https://example.test/new.png" } }),
        unchanged: (_w, p: Project) => mediaOf("projects", p.id),
        missing: () => ({ path: `/api/projects/${MISSING_ID}/${name}` }),
      },
      {
        name: `/api/projects/:id/${name} ${on(vis)}`,
        method: "PUT",
        expect: write(vis, 200),
        fresh: async (w) => {
          const p = await freshProject(w, vis);
          await addMedium("projects", p.id, name);
          return p;
        },
        path: (_w, p: Project) => `/api/projects/${p.id}/${name}`,
        body: () => ({ media: { metadata: { edited: true } } }),
        unchanged: (_w, p: Project) => mediaOf("projects", p.id),
        missing: () => ({ path: `/api/projects/${MISSING_ID}/${name}` }),
      },
      {
        name: `/api/projects/:id/${name} ${on(vis)}`,
        method: "DELETE",
        expect: write(vis, 204),
        fresh: async (w) => {
          const p = await freshProject(w, vis);
          await addMedium("projects", p.id, name);
          return p;
        },
        path: (_w, p: Project) => `/api/projects/${p.id}/${name}`,
        unchanged: (_w, p: Project) => mediaOf("projects", p.id),
        missing: () => ({ path: `/api/projects/${MISSING_ID}/${name}` }),
      },
    ]),
    {
      name: `/api/projects/:id/attached_images ${on(vis)}`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/projects/${w[vis].project.id}/attached_images`,
      missing: () => ({ path: `/api/projects/${MISSING_ID}/attached_images` }),
      check: (res, w) => {
        if (res.status === 200) expect(res.body.media.map((m: { id: string }) => m.id)).toEqual([String(w[vis].media.attached_images.id)]);
      },
    },
    {
      name: `/api/projects/:id/attached_images ${on(vis)}`,
      method: "POST",
      expect: write(vis, 201),
      fresh: (w) => freshProject(w, vis),
      path: (_w, p: Project) => `/api/projects/${p.id}/attached_images`,
      body: () => ({ media: { content_type: "image/png", external_link: true, src: "https://example.test/att.png" } }),
      unchanged: (_w, p: Project) => mediaOf("projects", p.id),
      missing: () => ({ path: `/api/projects/${MISSING_ID}/attached_images` }),
    },
    {
      name: `/api/projects/:id/attached_images/:medium_id ${on(vis)}`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/projects/${w[vis].project.id}/attached_images/${w[vis].media.attached_images.id}`,
      missing: (w) => ({ path: `/api/projects/${MISSING_ID}/attached_images/${w[vis].media.attached_images.id}` }),
    },
    {
      name: `/api/projects/:id/attached_images/:medium_id ${on(vis)}`,
      method: "PUT",
      expect: write(vis, 200),
      fresh: async (w) => {
        const project = await freshProject(w, vis);
        return { project, medium: await addMedium("projects", project.id, "attached_images") };
      },
      path: (_w, f: { project: Project; medium: Medium }) => `/api/projects/${f.project.id}/attached_images/${f.medium.id}`,
      body: () => ({ media: { metadata: { edited: true } } }),
      unchanged: (_w, f: { project: Project }) => mediaOf("projects", f.project.id),
      missing: (_w, f: { medium: Medium }) => ({ path: `/api/projects/${MISSING_ID}/attached_images/${f.medium.id}` }),
    },
    {
      name: `/api/projects/:id/attached_images/:medium_id ${on(vis)}`,
      method: "DELETE",
      expect: write(vis, 204),
      fresh: async (w) => {
        const project = await freshProject(w, vis);
        return { project, medium: await addMedium("projects", project.id, "attached_images") };
      },
      path: (_w, f: { project: Project; medium: Medium }) => `/api/projects/${f.project.id}/attached_images/${f.medium.id}`,
      unchanged: (_w, f: { project: Project }) => mediaOf("projects", f.project.id),
      missing: (_w, f: { medium: Medium }) => ({ path: `/api/projects/${MISSING_ID}/attached_images/${f.medium.id}` }),
    },
  ]),
  {
    name: "/api/projects/:id/attached_images/:medium_id (the public project, naming the private project's image)",
    method: "GET",
    expect: statuses(404),
    path: (w) => `/api/projects/${w.public.project.id}/attached_images/${w.private.media.attached_images.id}`,
    missing: (w) => ({ path: `/api/projects/${w.public.project.id}/attached_images/${MISSING_ID}` }),
  },
  // The list of attached images is not edited as a whole (name one): 405 whoever asks.
  ...(["PUT", "DELETE"] as const).map(
    (method): Row => ({
      name: "/api/projects/:id/attached_images (private project)",
      method,
      expect: statuses(405),
      path: (w) => `/api/projects/${w.private.project.id}/attached_images`,
      body: () => (method === "PUT" ? { media: { metadata: {} } } : undefined),
      unchanged: (w) => mediaOf("projects", w.private.project.id),
    }),
  ),
];

// ---------------------------------------------------------------------------------------------------------
// Workflows, subject sets, subjects, retirement, the queue

const freshWorkflowWithSubject = async (w: World, vis: Visibility) => {
  const workflow = await freshWorkflow(w, vis);
  const { subjects } = await createSubjectSet(w[vis].project.id, 1, { workflowIds: [workflow.id] });
  return { workflow, subject: subjects[0] };
};
const retirementOf = async (f: { workflow: Workflow; subject: Subject }) =>
  (await db().subjectWorkflowStatus.findUnique({ where: { subjectId_workflowId: { subjectId: f.subject.id, workflowId: f.workflow.id } } }))
    ?.retiredAt ?? null;

const workflowRows: Row[] = [
  {
    name: "/api/subject_sets/:id/links/subjects (a set of one's own project ← a private subject)",
    method: "POST",
    expect: statuses(422, { anonymous: 401 }),
    indistinguishableFor: ACTORS,
    fresh: async (w, a) => (await createSubjectSet((await ownProject(w, a)).id, 0)).set,
    path: (_w, s: SubjectSet) => `/api/subject_sets/${s.id}/links/subjects`,
    body: (w) => ({ subjects: [String(w.private.subjects[0].id)] }),
    missing: () => ({ body: { subjects: [String(MISSING_ID)] } }),
    unchanged: (_w, s: SubjectSet) => db().setMemberSubject.count({ where: { subjectSetId: s.id } }),
  },
  {
    name: "/api/workflows/:id/retired_subjects (the public workflow, naming a private subject)",
    method: "POST",
    expect: writePublic(422),
    indistinguishableFor: EDITORS,
    path: (w) => `/api/workflows/${w.public.workflow.id}/retired_subjects`,
    body: (w) => ({ subject_id: String(w.private.subjects[0].id), retirement_reason: "other" }),
    missing: () => ({ body: { subject_id: String(MISSING_ID), retirement_reason: "other" } }),
    unchanged: (w) => db().subjectWorkflowStatus.count({ where: { subjectId: w.private.subjects[0].id } }),
  },
  {
    name: "/api/workflows (in one's own project, linking the private project's set)",
    method: "POST",
    expect: statuses(422, { anonymous: 401 }),
    indistinguishableFor: ACTORS,
    fresh: async (w, a) => ({ project: await ownProject(w, a), name: `Probe ${uid()}` }),
    path: () => "/api/workflows",
    body: (w, f) => ({
      workflows: { display_name: f.name, links: { project: String(f.project.id), subject_sets: [String(w.private.set.id)] } },
    }),
    missing: (_w, f) => ({
      body: { workflows: { display_name: f.name, links: { project: String(f.project.id), subject_sets: [String(MISSING_ID)] } } },
    }),
    unchanged: (_w, f) => db().workflow.count({ where: { displayName: f.name } }),
  },
  {
    name: "/api/workflows?project_id=",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/workflows?project_id=${w.public.project.id},${w.private.project.id}&sort=id&page_size=100`,
    listed: {
      key: "workflows",
      records: (w) => [
        { label: "the public workflow", id: w.public.workflow.id, visibleTo: ACTORS },
        { label: "the private workflow", id: w.private.workflow.id, visibleTo: VIEWERS },
      ],
    },
  },
  {
    name: "/api/subject_sets?project_id=",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/subject_sets?project_id=${w.public.project.id},${w.private.project.id}&sort=id&page_size=100`,
    listed: {
      key: "subject_sets",
      records: (w) => [
        { label: "the public set", id: w.public.set.id, visibleTo: ACTORS },
        { label: "the private set", id: w.private.set.id, visibleTo: VIEWERS },
      ],
    },
  },
  {
    name: "/api/subjects?project_id=",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/subjects?project_id=${w.public.project.id},${w.private.project.id}&sort=id&page_size=100`,
    listed: {
      key: "subjects",
      records: (w) => [
        { label: "a public subject", id: w.public.subjects[0].id, visibleTo: ACTORS },
        { label: "a private subject", id: w.private.subjects[0].id, visibleTo: VIEWERS },
      ],
    },
  },
  ...VIS.flatMap((vis): Row[] => [
    // Workflows
    {
      name: `/api/workflows/:id ${on(vis)}`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/workflows/${w[vis].workflow.id}`,
      missing: () => ({ path: `/api/workflows/${MISSING_ID}` }),
    },
    {
      name: `/api/workflows ${on(vis)}`,
      method: "POST",
      expect: write(vis, 201),
      fresh: async () => ({ name: `New wf ${uid()}` }),
      path: () => "/api/workflows",
      body: (w, f) => ({ workflows: { display_name: f.name, links: { project: String(w[vis].project.id) } } }),
      unchanged: (_w, f) => db().workflow.count({ where: { displayName: f.name } }),
      missing: (_w, f) => ({ body: { workflows: { display_name: f.name, links: { project: String(MISSING_ID) } } } }),
    },
    {
      name: `/api/workflows/:id ${on(vis)}`,
      method: "PUT",
      expect: write(vis, 200),
      fresh: (w) => freshWorkflow(w, vis),
      path: (_w, wf: Workflow) => `/api/workflows/${wf.id}`,
      body: () => ({ workflows: { display_name: `Renamed ${uid()}`, active: false } }),
      unchanged: (_w, wf: Workflow) => db().workflow.findUnique({ where: { id: wf.id } }),
      missing: () => ({ path: `/api/workflows/${MISSING_ID}` }),
    },
    {
      name: `/api/workflows/:id ${on(vis)}`,
      method: "DELETE",
      expect: write(vis, 204),
      fresh: (w) => freshWorkflow(w, vis),
      path: (_w, wf: Workflow) => `/api/workflows/${wf.id}`,
      unchanged: (_w, wf: Workflow) => exists("workflow", wf.id),
      missing: () => ({ path: `/api/workflows/${MISSING_ID}` }),
    },
    {
      name: `/api/workflows/:id/links/subject_sets ${on(vis)}`,
      method: "POST",
      expect: write(vis, 200),
      fresh: (w) => freshWorkflow(w, vis),
      path: (_w, wf: Workflow) => `/api/workflows/${wf.id}/links/subject_sets`,
      body: (w) => ({ subject_sets: [String(w[vis].set.id)] }),
      unchanged: (_w, wf: Workflow) => db().workflowSubjectSet.count({ where: { workflowId: wf.id } }),
      missing: () => ({ path: `/api/workflows/${MISSING_ID}/links/subject_sets` }),
    },
    {
      name: `/api/workflows/:id/links/subject_sets/:ids ${on(vis)}`,
      method: "DELETE",
      expect: write(vis, 204),
      fresh: async (w) => {
        const wf = await freshWorkflow(w, vis);
        await db().workflowSubjectSet.create({ data: { workflowId: wf.id, subjectSetId: w[vis].set.id } });
        return wf;
      },
      path: (w, wf: Workflow) => `/api/workflows/${wf.id}/links/subject_sets/${w[vis].set.id}`,
      unchanged: (_w, wf: Workflow) => db().workflowSubjectSet.count({ where: { workflowId: wf.id } }),
      missing: (w) => ({ path: `/api/workflows/${MISSING_ID}/links/subject_sets/${w[vis].set.id}` }),
    },
    {
      name: `/api/workflows/:id/classifications_export ${on(vis)}`,
      method: "GET",
      expect: write(vis, 200),
      path: (w) => `/api/workflows/${w[vis].workflow.id}/classifications_export`,
      missing: () => ({ path: `/api/workflows/${MISSING_ID}/classifications_export` }),
      check: (res, w) => {
        if (res.status === 200) expect(res.body.media[0].id).toBe(String(w[vis].jobs.workflow.id));
      },
    },
    {
      name: `/api/workflows/:id/classifications_export ${on(vis)}`,
      method: "POST",
      expect: write(vis, 201),
      fresh: (w) => freshWorkflow(w, vis),
      path: (_w, wf: Workflow) => `/api/workflows/${wf.id}/classifications_export`,
      body: () => ({}),
      unchanged: (_w, wf: Workflow) => db().backgroundJob.count({ where: { params: { equals: { workflow_id: wf.id } } } }),
      missing: () => ({ path: `/api/workflows/${MISSING_ID}/classifications_export` }),
    },
    {
      name: `/api/workflows/:id/retired_subjects ${on(vis)}`,
      method: "POST",
      expect: write(vis, 204),
      fresh: (w) => freshWorkflowWithSubject(w, vis),
      path: (_w, f) => `/api/workflows/${f.workflow.id}/retired_subjects`,
      body: (_w, f) => ({ subject_id: String(f.subject.id), retirement_reason: "consensus" }),
      unchanged: (_w, f) => retirementOf(f),
      missing: () => ({ path: `/api/workflows/${MISSING_ID}/retired_subjects` }),
      check: async (res, _w, f) => {
        if (res.status === 204) expect(await retirementOf(f)).not.toBeNull();
      },
    },
    {
      name: `/api/workflows/:id/unretire_subjects ${on(vis)}`,
      method: "POST",
      expect: write(vis, 204),
      fresh: async (w) => {
        const f = await freshWorkflowWithSubject(w, vis);
        await db().subjectWorkflowStatus.create({
          data: { subjectId: f.subject.id, workflowId: f.workflow.id, retiredAt: new Date(), retirementReason: "other" },
        });
        return f;
      },
      path: (_w, f) => `/api/workflows/${f.workflow.id}/unretire_subjects`,
      body: (_w, f) => ({ subject_ids: [String(f.subject.id)] }),
      unchanged: (_w, f) => retirementOf(f),
      missing: () => ({ path: `/api/workflows/${MISSING_ID}/unretire_subjects` }),
    },
    {
      name: `/api/subjects/retire ${on(vis)}`,
      method: "POST",
      expect: write(vis, 204),
      fresh: (w) => freshWorkflowWithSubject(w, vis),
      path: () => "/api/subjects/retire",
      body: (_w, f) => ({ workflow_id: String(f.workflow.id), subject_id: String(f.subject.id), retirement_reason: "blank" }),
      unchanged: (_w, f) => retirementOf(f),
      missing: (_w, f) => ({ body: { workflow_id: String(MISSING_ID), subject_id: String(f.subject.id), retirement_reason: "blank" } }),
    },
    {
      name: `/api/subjects/queued?workflow_id= ${on(vis)}`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/subjects/queued?workflow_id=${w[vis].workflow.id}`,
      missing: () => ({ path: `/api/subjects/queued?workflow_id=${MISSING_ID}` }),
      check: (res, w) => {
        if (res.status === 200) {
          expect(res.body.subjects.length).toBeGreaterThan(0);
          for (const s of res.body.subjects) expect(s.links.project).toBe(String(w[vis].project.id));
        }
      },
    },
    {
      name: `/api/subjects?sort=queued&workflow_id= ${on(vis)}`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/subjects?sort=queued&workflow_id=${w[vis].workflow.id}`,
      missing: () => ({ path: `/api/subjects?sort=queued&workflow_id=${MISSING_ID}` }),
    },
    // Subject sets
    {
      name: `/api/subject_sets/:id ${on(vis)}`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/subject_sets/${w[vis].set.id}`,
      missing: () => ({ path: `/api/subject_sets/${MISSING_ID}` }),
    },
    {
      name: `/api/subject_sets ${on(vis)}`,
      method: "POST",
      expect: write(vis, 201),
      fresh: async () => ({ name: `New set ${uid()}` }),
      path: () => "/api/subject_sets",
      body: (w, f) => ({ subject_sets: { display_name: f.name, links: { project: String(w[vis].project.id) } } }),
      unchanged: (_w, f) => db().subjectSet.count({ where: { displayName: f.name } }),
      missing: (_w, f) => ({ body: { subject_sets: { display_name: f.name, links: { project: String(MISSING_ID) } } } }),
    },
    {
      name: `/api/subject_sets/:id ${on(vis)}`,
      method: "PUT",
      expect: write(vis, 200),
      fresh: async (w) => (await createSubjectSet(w[vis].project.id, 0)).set,
      path: (_w, s: SubjectSet) => `/api/subject_sets/${s.id}`,
      body: () => ({ subject_sets: { display_name: `Renamed ${uid()}` } }),
      unchanged: (_w, s: SubjectSet) => db().subjectSet.findUnique({ where: { id: s.id } }),
      missing: () => ({ path: `/api/subject_sets/${MISSING_ID}` }),
    },
    {
      name: `/api/subject_sets/:id ${on(vis)}`,
      method: "DELETE",
      expect: write(vis, 204),
      fresh: async (w) => (await createSubjectSet(w[vis].project.id, 0)).set,
      path: (_w, s: SubjectSet) => `/api/subject_sets/${s.id}`,
      unchanged: (_w, s: SubjectSet) => exists("subjectSet", s.id),
      missing: () => ({ path: `/api/subject_sets/${MISSING_ID}` }),
    },
    {
      name: `/api/subject_sets/:id/links/subjects ${on(vis)}`,
      method: "POST",
      expect: write(vis, 200),
      fresh: async (w) => (await createSubjectSet(w[vis].project.id, 0)).set,
      path: (_w, s: SubjectSet) => `/api/subject_sets/${s.id}/links/subjects`,
      body: (w) => ({ subjects: [String(w[vis].subjects[0].id)] }),
      unchanged: (_w, s: SubjectSet) => db().setMemberSubject.count({ where: { subjectSetId: s.id } }),
      missing: () => ({ path: `/api/subject_sets/${MISSING_ID}/links/subjects` }),
    },
    {
      name: `/api/subject_sets/:id/links/subjects/:ids ${on(vis)}`,
      method: "DELETE",
      expect: write(vis, 204),
      fresh: async (w) => {
        const { set, subjects } = await createSubjectSet(w[vis].project.id, 1);
        return { set, subject: subjects[0] };
      },
      path: (_w, f) => `/api/subject_sets/${f.set.id}/links/subjects/${f.subject.id}`,
      unchanged: (_w, f) => db().setMemberSubject.count({ where: { subjectSetId: f.set.id } }),
      missing: (_w, f) => ({ path: `/api/subject_sets/${MISSING_ID}/links/subjects/${f.subject.id}` }),
    },
    {
      name: `/api/subject_sets/:id/links/workflows ${on(vis)}`,
      method: "POST",
      expect: write(vis, 200),
      fresh: async (w) => (await createSubjectSet(w[vis].project.id, 0)).set,
      path: (_w, s: SubjectSet) => `/api/subject_sets/${s.id}/links/workflows`,
      body: (w) => ({ workflows: [String(w[vis].workflow.id)] }),
      unchanged: (_w, s: SubjectSet) => db().workflowSubjectSet.count({ where: { subjectSetId: s.id } }),
      missing: () => ({ path: `/api/subject_sets/${MISSING_ID}/links/workflows` }),
    },
    {
      name: `/api/subject_sets/:id/imports ${on(vis)}`,
      method: "POST",
      expect: write(vis, 201),
      fresh: async (w) => (await createSubjectSet(w[vis].project.id, 0)).set,
      path: (_w, s: SubjectSet) => `/api/subject_sets/${s.id}/imports`,
      options: () => ({ raw: "location:image/png,name\nhttps://example.test/a.png,a\n", contentType: "text/csv" }),
      unchanged: (_w, s: SubjectSet) => db().backgroundJob.count({ where: { params: { path: ["subject_set_id"], equals: s.id } } }),
      missing: () => ({ path: `/api/subject_sets/${MISSING_ID}/imports` }),
    },
    // Subjects
    {
      name: `/api/subjects/:id ${on(vis)}`,
      method: "GET",
      expect: read(vis),
      path: (w) => `/api/subjects/${w[vis].subjects[0].id}`,
      missing: () => ({ path: `/api/subjects/${MISSING_ID}` }),
    },
    {
      name: `/api/subjects ${on(vis)}`,
      method: "POST",
      expect: write(vis, 201),
      fresh: async () => ({ externalId: `ext-${uid()}` }),
      path: () => "/api/subjects",
      body: (w, f) => ({
        subjects: {
          locations: [{ "image/png": "https://example.test/s.png" }],
          external_id: f.externalId,
          links: { project: String(w[vis].project.id) },
        },
      }),
      unchanged: (_w, f) => db().subject.count({ where: { externalId: f.externalId } }),
      missing: (_w, f) => ({
        body: {
          subjects: {
            locations: [{ "image/png": "https://example.test/s.png" }],
            external_id: f.externalId,
            links: { project: String(MISSING_ID) },
          },
        },
      }),
    },
    {
      name: `/api/subjects/:id ${on(vis)}`,
      method: "PUT",
      expect: write(vis, 200),
      fresh: (w) => freshSubject(w, vis),
      path: (_w, s: Subject) => `/api/subjects/${s.id}`,
      body: () => ({ subjects: { metadata: { edited: uid() } } }),
      unchanged: (_w, s: Subject) => db().subject.findUnique({ where: { id: s.id } }),
      missing: () => ({ path: `/api/subjects/${MISSING_ID}` }),
    },
    {
      name: `/api/subjects/:id ${on(vis)}`,
      method: "DELETE",
      expect: write(vis, 204),
      fresh: (w) => freshSubject(w, vis),
      path: (_w, s: Subject) => `/api/subjects/${s.id}`,
      unchanged: (_w, s: Subject) => exists("subject", s.id),
      missing: () => ({ path: `/api/subjects/${MISSING_ID}` }),
    },
  ]),
];

// ---------------------------------------------------------------------------------------------------------
// Classifications

const ownOnly =
  (key: string): Row["check"] =>
  (res, w, _f, actor) => {
    if (res.status !== 200) return;
    for (const c of res.body[key]) expect(c.links.user, `${actor} sees only their own classifications`).toBe(String(userId(w, actor)));
  };
/** Someone else's classification: editors see it (but may not change it), everyone else gets 404. */
const othersClassification = (ok: number) => only(EDITORS, ok, 404, { anonymous: 401 });

const classificationRows: Row[] = [
  ...["/api/classifications", "/api/classifications/default", "/api/classifications/incomplete"].map(
    (path): Row => ({
      name: `${path} (own only)`,
      method: "GET",
      expect: statuses(200),
      path: (w) => `${path}?project_id=${w.public.project.id},${w.private.project.id}&page_size=100`,
      check: ownOnly("classifications"),
      listed: {
        key: "classifications",
        records: (w) => [{ label: "the volunteer's classification", id: w.private.classification.id, visibleTo: [] }],
      },
    }),
  ),
  {
    name: "/api/classifications/project?project_id=",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/classifications/project?project_id=${w.public.project.id},${w.private.project.id}&page_size=100`,
    listed: {
      key: "classifications",
      records: (w) => [
        { label: "a classification of the public project", id: w.public.classification.id, visibleTo: EDITORS },
        { label: "a classification of the private project", id: w.private.classification.id, visibleTo: EDITORS },
      ],
    },
  },
  {
    name: "/api/classifications/gold_standard?workflow_id=",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/classifications/gold_standard?workflow_id=${w.public.workflow.id},${w.private.workflow.id}&page_size=100`,
    listed: {
      key: "classifications",
      records: (w) => [
        { label: "public gold standard of the public project", id: w.public.gold.id, visibleTo: ACTORS },
        { label: "public gold standard of the private project", id: w.private.gold.id, visibleTo: VIEWERS },
      ],
    },
  },
  {
    name: "/api/classifications (a public workflow, naming a private subject)",
    method: "POST",
    expect: statuses(422),
    indistinguishableFor: ACTORS,
    fresh: async () => ({ marker: `ua-${uid()}` }),
    path: () => "/api/classifications",
    body: (w, f) => {
      const b = classificationBody(w.public.workflow, [w.private.subjects[0].id]);
      b.classifications.metadata.user_agent = f.marker;
      return b;
    },
    missing: (w, f) => {
      const b = classificationBody(w.public.workflow, [MISSING_ID]);
      b.classifications.metadata.user_agent = f.marker;
      return { body: b };
    },
    unchanged: (_w, f) => db().classification.count({ where: { metadata: { path: ["user_agent"], equals: f.marker } } }),
  },
  {
    name: "/api/classifications gold_standard (owners, collaborators and experts only; public project)",
    method: "POST",
    expect: statuses(403, { collaborator: 201, expert: 201, owner: 201, admin: 201 }),
    fresh: async () => ({ marker: `ua-${uid()}` }),
    path: () => "/api/classifications",
    body: (w, f) => {
      const b = classificationBody(w.public.workflow, [w.public.subjects[2].id], { gold_standard: true });
      b.classifications.metadata.user_agent = f.marker;
      return b;
    },
    unchanged: (_w, f) => db().classification.count({ where: { metadata: { path: ["user_agent"], equals: f.marker } } }),
  },
  ...VIS.flatMap((vis): Row[] => [
    {
      name: `/api/classifications/:id (a volunteer's, ${vis} project)`,
      method: "GET",
      expect: only(EDITORS, 200, 404),
      path: (w) => `/api/classifications/${w[vis].classification.id}`,
      missing: () => ({ path: `/api/classifications/${MISSING_ID}` }),
    },
    {
      name: `/api/classifications ${on(vis)}`,
      method: "POST",
      // Anonymous volunteers classify public projects. A workflow one cannot see is answered as a missing
      // one: 422 naming links.workflow.
      expect: vis === "public" ? statuses(201) : statuses(201, { anonymous: 422, stranger: 422 }),
      indistinguishableFor: vis === "private" ? ["anonymous", "stranger"] : [],
      fresh: async () => ({ marker: `ua-${uid()}` }),
      path: () => "/api/classifications",
      body: (w, f) => {
        const b = classificationBody(w[vis].workflow, [w[vis].subjects[1].id]);
        b.classifications.metadata.user_agent = f.marker;
        return b;
      },
      missing: (w, f) => {
        const b = classificationBody({ ...w[vis].workflow, id: MISSING_ID }, [w[vis].subjects[1].id]);
        b.classifications.metadata.user_agent = f.marker;
        return { body: b };
      },
      unchanged: (_w, f) => db().classification.count({ where: { metadata: { path: ["user_agent"], equals: f.marker } } }),
    },
    ...(["PUT", "DELETE"] as const).map(
      (method): Row => ({
        name: `/api/classifications/:id (a volunteer's incomplete one, ${vis} project)`,
        method,
        expect: othersClassification(403),
        fresh: (w) => classify(w[vis], w.volunteer.id, { completed: false }),
        path: (_w, c: Classification) => `/api/classifications/${c.id}`,
        body: () => (method === "PUT" ? { classifications: { annotations: [{ task: "T0", value: 1 }] } } : undefined),
        unchanged: (_w, c: Classification) => db().classification.findUnique({ where: { id: c.id } }),
        missing: () => ({ path: `/api/classifications/${MISSING_ID}` }),
      }),
    ),
  ]),
  ...(["PUT", "DELETE"] as const).map(
    (method): Row => ({
      name: "/api/classifications/:id (one's own incomplete one, public project)",
      method,
      expect: signedIn(method === "PUT" ? 200 : 204),
      fresh: (w, a) => classify(w.public, userId(w, a) ?? w.volunteer.id, { completed: false }),
      path: (_w, c: Classification) => `/api/classifications/${c.id}`,
      body: () => (method === "PUT" ? { classifications: { annotations: [{ task: "T0", value: 1 }], completed: true } } : undefined),
      unchanged: (_w, c: Classification) => db().classification.findUnique({ where: { id: c.id } }),
    }),
  ),
];

// ---------------------------------------------------------------------------------------------------------
// Project roles

const freshRole = async (w: World, vis: Visibility) =>
  db().projectRole.create({ data: { projectId: w[vis].project.id, userId: (await createUser()).id, roles: ["tester"] } });

const roleRows: Row[] = [
  {
    name: "/api/project_roles?project_id=",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/project_roles?project_id=${w.public.project.id},${w.private.project.id}&page_size=100`,
    listed: {
      key: "project_roles",
      records: (w) =>
        [w.public, w.private].flatMap((pw) =>
          Object.entries(pw.roles).map(([holder, role]) => ({
            label: `the ${holder}'s role on the ${pw.vis} project`,
            id: role.id,
            visibleTo: roleViewers(holder as ActorName, pw.vis),
          })),
        ),
    },
  },
  {
    name: "/api/project_roles/:id (own role: a holder without edit rights may not change it)",
    method: "PUT",
    expect: statuses(403, { anonymous: 401, collaborator: 200, owner: 422, admin: 200 }), // a public project: the stranger sees the role, may not change it
    fresh: async (w, a) => {
      const p = await castProject(w.cast);
      const holder = a === "anonymous" || a === "stranger" || a === "admin" ? "tester" : a;
      return db().projectRole.findUniqueOrThrow({
        where: { projectId_userId: { projectId: p.id, userId: w.cast.members[holder].user.id } },
      });
    },
    path: (_w, r: ProjectRole) => `/api/project_roles/${r.id}`,
    body: () => ({ project_roles: { roles: ["collaborator"] } }),
    unchanged: (_w, r: ProjectRole) => db().projectRole.findUnique({ where: { id: r.id } }),
  },
  ...VIS.flatMap((vis): Row[] => [
    {
      name: `/api/project_roles/:id (the tester's, ${vis} project)`,
      method: "GET",
      expect: only(roleViewers("tester", vis), 200, 404),
      path: (w) => `/api/project_roles/${w[vis].roles.tester.id}`,
      missing: () => ({ path: `/api/project_roles/${MISSING_ID}` }),
    },
    {
      name: `/api/project_roles ${on(vis)}`,
      method: "POST",
      expect: write(vis, 201),
      fresh: () => createUser(),
      path: () => "/api/project_roles",
      body: (w, u: TestUser) => ({
        project_roles: { roles: ["tester"], links: { project: String(w[vis].project.id), user: String(u.id) } },
      }),
      unchanged: (_w, u: TestUser) => db().projectRole.count({ where: { userId: u.id } }),
      missing: (_w, u: TestUser) => ({
        body: { project_roles: { roles: ["tester"], links: { project: String(MISSING_ID), user: String(u.id) } } },
      }),
    },
    {
      name: `/api/project_roles/:id (another user's, ${vis} project)`,
      method: "PUT",
      expect: only(EDITORS, 200, vis === "public" ? 403 : 404, { anonymous: 401 }),
      fresh: (w) => freshRole(w, vis),
      path: (_w, r: ProjectRole) => `/api/project_roles/${r.id}`,
      body: () => ({ project_roles: { roles: ["collaborator"] } }),
      unchanged: (_w, r: ProjectRole) => db().projectRole.findUnique({ where: { id: r.id } }),
      missing: () => ({ path: `/api/project_roles/${MISSING_ID}` }),
    },
    {
      name: `/api/project_roles/:id (another user's, ${vis} project)`,
      method: "DELETE",
      expect: only(EDITORS, 204, vis === "public" ? 403 : 404, { anonymous: 401 }),
      fresh: (w) => freshRole(w, vis),
      path: (_w, r: ProjectRole) => `/api/project_roles/${r.id}`,
      unchanged: (_w, r: ProjectRole) => exists("projectRole", r.id),
      missing: () => ({ path: `/api/project_roles/${MISSING_ID}` }),
    },
  ]),
];

// ---------------------------------------------------------------------------------------------------------
// Project preferences

const freshPreference = async (w: World, vis: Visibility) =>
  db().projectPreference.create({
    data: { projectId: w[vis].project.id, userId: (await createUser()).id, preferences: { volunteer: true } },
  });
const preferenceListed: NonNullable<Row["listed"]> = {
  key: "project_preferences",
  records: (w) => [
    { label: "the tester's preference on the public project", id: w.public.preference.id, visibleTo: ["tester", "admin"] },
    { label: "the tester's preference on the private project", id: w.private.preference.id, visibleTo: ["tester", "admin"] },
    { label: "the stranger's preference on the private project", id: w.strangerPreference.id, visibleTo: ["stranger", "admin"] },
  ],
};

const preferenceRows: Row[] = [
  {
    name: "/api/project_preferences?project_id=",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/project_preferences?project_id=${w.public.project.id},${w.private.project.id}&page_size=100`,
    listed: preferenceListed,
  },
  {
    name: "/project_preferences?project_id= (the documented path without /api)",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/project_preferences?project_id=${w.public.project.id},${w.private.project.id}&page_size=100`,
    options: () => ({ accept: ACCEPT }),
    listed: preferenceListed,
  },
  {
    // A preference outlives the role that made the project visible: its include must not reach the project.
    name: "/api/project_preferences/:id?include=project,user (the stranger's, on the private project)",
    method: "GET",
    expect: only(["stranger", "admin"], 200, 404),
    path: (w) => `/api/project_preferences/${w.strangerPreference.id}?include=project,user`,
    missing: () => ({ path: `/api/project_preferences/${MISSING_ID}?include=project,user` }),
    check: (res, w, _f, actor) => {
      if (res.status === 200) expect(linkedIds(res, "projects")).toEqual(actor === "admin" ? [w.private.project.id] : []);
    },
  },
  {
    name: "/api/project_preferences/:id (one's own, public project)",
    method: "PUT",
    expect: signedIn(200),
    fresh: async (w, a) => {
      const p = await castProject(w.cast);
      return db().projectPreference.create({ data: { projectId: p.id, userId: userId(w, a) ?? w.volunteer.id } });
    },
    path: (_w, p: ProjectPreference) => `/api/project_preferences/${p.id}`,
    body: () => ({ project_preferences: { preferences: { tutorial: true }, email_communication: true } }),
    unchanged: (_w, p: ProjectPreference) => db().projectPreference.findUnique({ where: { id: p.id } }),
  },
  ...VIS.flatMap((vis): Row[] => [
    {
      name: `/api/project_preferences/:id (the tester's, ${vis} project)`,
      method: "GET",
      expect: only(["tester", "admin"], 200, 404),
      path: (w) => `/api/project_preferences/${w[vis].preference.id}`,
      missing: () => ({ path: `/api/project_preferences/${MISSING_ID}` }),
    },
    {
      name: `/api/project_preferences ${on(vis)}`,
      method: "POST",
      expect: vis === "public" ? signedIn(201) : statuses(201, { anonymous: 401, stranger: 404 }),
      fresh: (w) => freshProject(w, vis),
      path: () => "/api/project_preferences",
      body: (_w, p: Project) => ({ project_preferences: { preferences: { tutorial: true }, links: { project: String(p.id) } } }),
      unchanged: (_w, p: Project) => db().projectPreference.count({ where: { projectId: p.id } }),
      missing: () => ({ body: { project_preferences: { preferences: { tutorial: true }, links: { project: String(MISSING_ID) } } } }),
    },
    {
      // Only the preference's user edits `preferences`; project editors may lock it (for settings) but not this.
      name: `/api/project_preferences/:id preferences (a volunteer's, ${vis} project)`,
      method: "PUT",
      expect: statuses(404, { anonymous: 401, collaborator: 403, owner: 403, admin: 200 }),
      fresh: (w) => freshPreference(w, vis),
      path: (_w, p: ProjectPreference) => `/api/project_preferences/${p.id}`,
      body: () => ({ project_preferences: { preferences: { hijacked: true } } }),
      unchanged: (_w, p: ProjectPreference) => db().projectPreference.findUnique({ where: { id: p.id } }),
      missing: () => ({ path: `/api/project_preferences/${MISSING_ID}` }),
    },
    {
      name: `/api/project_preferences/:id settings (a volunteer's, ${vis} project)`,
      method: "PUT",
      expect: only(EDITORS, 200, 404, { anonymous: 401 }),
      fresh: (w) => freshPreference(w, vis),
      // The editor reads back the record it edits; the included user is serialized with public fields only.
      path: (_w, p: ProjectPreference) => `/api/project_preferences/${p.id}?include=user`,
      body: (w) => ({ project_preferences: { settings: { workflow_id: String(w[vis].workflow.id) } } }),
      unchanged: (_w, p: ProjectPreference) => db().projectPreference.findUnique({ where: { id: p.id } }),
      missing: () => ({ path: `/api/project_preferences/${MISSING_ID}?include=user` }),
      check: (res, _w, p: ProjectPreference) => {
        if (res.status === 200) expect(linkedIds(res, "users")).toEqual([p.userId]);
      },
    },
    ...["/api/project_preferences/update_settings", "/api/project_preferencess"].map(
      (path): Row => ({
        name: `${path} settings (a volunteer's, ${vis} project)`,
        method: "POST",
        expect: write(vis, 200),
        fresh: () => createUser(),
        path: (w, u: TestUser) => `${path}?user_id=${u.id}&project_id=${w[vis].project.id}`,
        body: (w) => ({ project_preferences: { settings: { workflow_id: String(w[vis].workflow.id) } } }),
        unchanged: (_w, u: TestUser) => db().projectPreference.findMany({ where: { userId: u.id } }),
        missing: (_w, u: TestUser) => ({ path: `${path}?user_id=${u.id}&project_id=${MISSING_ID}` }),
      }),
    ),
    {
      name: `/api/project_preferences/update_settings designator (one's own, ${vis} project)`,
      method: "POST",
      expect: vis === "public" ? signedIn(200) : statuses(200, { anonymous: 401, stranger: 404 }),
      path: () => "/api/project_preferences/update_settings",
      body: (w, _f, a) => ({
        project_preferences: {
          user_id: String(selfOrTester(w, a)),
          project_id: String(w[vis].project.id),
          designator: { subject_set_chances: { [w[vis].workflow.id]: { [w[vis].set.id]: 1 } } },
        },
      }),
      missing: (w, _f, a) => ({
        body: {
          project_preferences: {
            user_id: String(selfOrTester(w, a)),
            project_id: String(MISSING_ID),
            designator: { subject_set_chances: {} },
          },
        },
      }),
    },
  ]),
];

// ---------------------------------------------------------------------------------------------------------
// Background jobs

const jobRows: Row[] = [
  {
    name: "/api/background_jobs?project_id=",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/background_jobs?project_id=${w.public.project.id},${w.private.project.id}&page_size=100`,
    listed: {
      key: "background_jobs",
      records: (w) => [
        { label: "an export of the public project", id: w.public.jobs.classifications_export.id, visibleTo: EDITORS },
        { label: "an export of the private project", id: w.private.jobs.classifications_export.id, visibleTo: EDITORS },
      ],
    },
  },
  ...VIS.map(
    (vis): Row => ({
      name: `/api/background_jobs/:id ${on(vis)}`,
      method: "GET",
      expect: only(EDITORS, 200, 404),
      path: (w) => `/api/background_jobs/${w[vis].jobs.subjects_export.id}`,
      missing: () => ({ path: `/api/background_jobs/${MISSING_ID}` }),
    }),
  ),
];

// ---------------------------------------------------------------------------------------------------------
// Users and their media

const emailOf = (res: CallResult, id: number) =>
  (res.body?.users as { id: string; email?: string }[] | undefined)?.find((u) => u.id === String(id))?.email;

const userRows: Row[] = [
  {
    name: "/api/users?id= (the cast)",
    method: "GET",
    expect: statuses(200),
    path: (w) =>
      `/api/users?id=${Object.values(w.cast.members)
        .map((m) => m.user.id)
        .join(",")}`,
    check: (res, w, _f, actor) => {
      for (const [name, m] of Object.entries(w.cast.members)) {
        expect(emailOf(res, m.user.id), `${name}'s email as seen by ${actor}`).toBe(
          actor === name || actor === "admin" ? m.user.email : undefined,
        );
      }
    },
  },
  {
    name: "/api/users/:id (the tester)",
    method: "GET",
    expect: statuses(200),
    path: (w) => `/api/users/${w.cast.members.tester.user.id}`,
    check: (res, w, _f, actor) => {
      const tester = w.cast.members.tester.user;
      expect(emailOf(res, tester.id)).toBe(actor === "tester" || actor === "admin" ? tester.email : undefined);
      expect(res.body.users[0].languages).toEqual(actor === "tester" || actor === "admin" ? tester.languages : undefined);
    },
  },
  {
    name: "/api/me",
    method: "GET",
    expect: signedIn(200),
    path: () => "/api/me",
    check: (res, w, _f, actor) => {
      if (res.status === 200) expect(res.body.users[0]).toMatchObject({ id: String(userId(w, actor)), email: w.cast.user(actor)!.email });
    },
  },
  {
    name: "/api/users/:id (oneself)",
    method: "PUT",
    expect: signedIn(200),
    fresh: selfOrFresh,
    path: (_w, u: { id: number }) => `/api/users/${u.id}`,
    body: () => ({ users: { credited_name: `Credited ${uid()}` } }),
    unchanged: (_w, u: { id: number }) => db().user.findUnique({ where: { id: u.id } }),
  },
  {
    name: "/api/users/:id admin, upload_whitelist, subject_limit (oneself: admins only)",
    method: "PUT",
    expect: statuses(403, { anonymous: 401, admin: 200 }),
    fresh: selfOrFresh,
    path: (_w, u: { id: number }) => `/api/users/${u.id}`,
    body: () => ({ users: { admin: true, upload_whitelist: true, subject_limit: 1_000_000 } }),
    // Only these fields: the row editing one's own credited_name runs alongside.
    unchanged: (_w, u: { id: number }) =>
      db().user.findUnique({ where: { id: u.id }, select: { admin: true, uploadWhitelist: true, subjectLimit: true } }),
  },
  {
    name: "/api/users/:id (another user)",
    method: "PUT",
    expect: statuses(403, { anonymous: 401, admin: 200 }),
    fresh: () => createUser(),
    path: (_w, u: TestUser) => `/api/users/${u.id}`,
    body: () => ({ users: { display_name: "Hijacked" } }),
    unchanged: (_w, u: TestUser) => db().user.findUnique({ where: { id: u.id } }),
  },
  {
    name: "/api/users/:id/avatar (oneself)",
    method: "POST",
    expect: signedIn(201),
    fresh: selfOrFresh,
    path: (_w, u: { id: number }) => `/api/users/${u.id}/avatar`,
    body: () => ({ media: { content_type: "image/png", external_link: true, src: "https://example.test/me.png" } }),
    unchanged: (_w, u: { id: number }) => mediaOf("users", u.id),
  },
  ...USER_MEDIA.flatMap((name): Row[] => [
    {
      name: `/api/users/:id/${name} (the tester's)`,
      method: "GET",
      expect: statuses(200),
      path: (w) => `/api/users/${w.cast.members.tester.user.id}/${name}`,
    },
    {
      name: `/api/users/:id/${name} (another user's)`,
      method: "POST",
      expect: statuses(403, { anonymous: 401, admin: 201 }),
      fresh: () => createUser(),
      path: (_w, u: TestUser) => `/api/users/${u.id}/${name}`,
      body: () => ({ media: { content_type: "image/png", external_link: true, src: "https://example.test/x.png" } }),
      unchanged: (_w, u: TestUser) => mediaOf("users", u.id),
    },
    ...(["PUT", "DELETE"] as const).map(
      (method): Row => ({
        name: `/api/users/:id/${name} (another user's)`,
        method,
        expect: statuses(403, { anonymous: 401, admin: method === "PUT" ? 200 : 204 }),
        fresh: async () => {
          const u = await createUser();
          await addMedium("users", u.id, name);
          return u;
        },
        path: (_w, u: TestUser) => `/api/users/${u.id}/${name}`,
        body: () => (method === "PUT" ? { media: { metadata: { edited: true } } } : undefined),
        unchanged: (_w, u: TestUser) => mediaOf("users", u.id),
      }),
    ),
  ]),
];

// ---------------------------------------------------------------------------------------------------------
// Accounts, tokens, stored files, unknown paths

/** GET /users/sign_in: the session cookie and CSRF token of a fresh browser. */
async function browserSession() {
  const res = await call("GET", "/users/sign_in", { accept: "application/json" });
  return { cookie: res.headers.get("set-cookie")!.split(";")[0], csrf: res.headers.get("x-csrf-token")! };
}
const credentials = (w: World, a: ActorName) => {
  const u = w.cast.user(a) ?? w.cast.members.tester.user;
  return { login: u.login, password: a === "anonymous" ? "not-the-password" : u.password };
};

const accountRows: Row[] = [
  {
    name: "/oauth/token (password grant)",
    method: "POST",
    expect: statuses(200, { anonymous: 400 }),
    path: () => "/oauth/token",
    body: (w, _f, a) => ({ grant_type: "password", client_id: env().PUBLIC_CLIENT_ID, ...credentials(w, a) }),
    check: async (res, w, _f, a) => {
      if (res.status !== 200) return;
      const me = await call("GET", "/api/me", { token: res.body.access_token });
      expect(me.body.users[0].id).toBe(String(userId(w, a)));
    },
  },
  {
    name: "/users (register)",
    method: "POST",
    expect: statuses(201),
    fresh: async () => ({ login: `reg_${uid()}` }),
    path: () => "/users",
    body: (_w, f) => ({ user: { login: f.login, email: `${f.login}@example.test`, password: "long-enough-pw" } }),
    // The answer is the new user's own record, whoever sent the request.
    ownUser: (res, _w, f) => (res.body?.users?.[0]?.login === f.login ? Number(res.body.users[0].id) : undefined),
    check: (res, _w, f) => expect(res.body.users[0]).toMatchObject({ login: f.login, email: `${f.login}@example.test` }),
  },
  {
    name: "/users/sign_in",
    method: "GET",
    expect: statuses(200),
    path: () => "/users/sign_in",
    check: (res) => expect(res.headers.get("x-csrf-token")).toBeTruthy(),
  },
  {
    name: "/users/sign_in (with the actor's login; anonymous: a wrong password)",
    method: "POST",
    expect: statuses(200, { anonymous: 401 }),
    path: () => "/users/sign_in",
    send: async (w, _f, a) => {
      const { cookie, csrf } = await browserSession();
      return call("POST", "/users/sign_in", {
        accept: "application/json",
        headers: { cookie },
        body: { authenticity_token: csrf, user: credentials(w, a) },
      });
    },
    check: (res, w, _f, a) => {
      if (res.status === 200) expect(res.body.users[0]).toMatchObject({ id: String(userId(w, a)), email: w.cast.user(a)!.email });
    },
  },
  {
    name: "/users/sign_out (without the CSRF token)",
    method: "DELETE",
    expect: statuses(422),
    path: () => "/users/sign_out",
  },
  {
    // Signing out revokes the bearer token sent with it (a fresh one: the actor's own stays valid).
    name: "/users/sign_out (with the CSRF token and a fresh bearer token)",
    method: "DELETE",
    expect: statuses(204),
    fresh: async (w, a) => {
      const u = w.cast.user(a);
      return { token: u ? await tokenFor(u) : undefined };
    },
    path: () => "/users/sign_out",
    send: async (_w, f) => {
      const { cookie, csrf } = await browserSession();
      return call("DELETE", "/users/sign_out", { accept: "application/json", token: f.token, headers: { cookie, "x-csrf-token": csrf } });
    },
    check: async (_res, _w, f) => {
      if (f.token) expect((await call("GET", "/api/me", { token: f.token })).status).toBe(401);
    },
  },
  {
    name: "/unsubscribe",
    method: "POST",
    expect: statuses(200),
    fresh: () => createUser(),
    path: () => "/unsubscribe",
    body: (_w, u: TestUser) => ({ email: u.email }),
  },
  {
    name: "/uploads/exports/... (unsigned: an export is never public)",
    method: "GET",
    expect: statuses(403),
    path: (w) => `/uploads/${w.exportKey}`,
  },
  {
    name: "/uploads/exports/... (signed)",
    method: "GET",
    expect: statuses(200),
    fresh: async (w) => ({ url: new URL(await signedUrl("GET", w.exportKey), "http://x") }),
    path: (_w, f) => `${f.url.pathname}${f.url.search}`,
  },
  {
    name: "/uploads/exports/... (unsigned)",
    method: "PUT",
    expect: statuses(403),
    path: (w) => `/uploads/${w.exportKey}`,
    options: () => ({ raw: "overwritten", contentType: "text/csv" }),
    unchanged: async (w) => {
      const o = await storage().getObjectStream(w.exportKey);
      o?.stream.destroy();
      return o?.etag;
    },
  },
  {
    name: "/api/no_such_resource",
    method: "GET",
    expect: statuses(404),
    path: () => "/api/no_such_resource",
  },
];

authorizationMatrix("authorization matrix: component A", setup, [
  ...projectRows,
  ...workflowRows,
  ...classificationRows,
  ...roleRows,
  ...preferenceRows,
  ...jobRows,
  ...userRows,
  ...accountRows,
]);
