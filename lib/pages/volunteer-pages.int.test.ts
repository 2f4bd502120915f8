// The volunteer's own pages' loaders (lib/pages/collections.ts, recents.ts, profile.ts, account.ts, and the
// titles): what each visitor is shown of collections, favourites, recents and profiles, against PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS, type Actor } from "@/lib/auth/actor";
import { db, pool } from "@/lib/db";
import { disableUser } from "@/lib/domain/accounts";
import type { User } from "@/lib/generated/prisma/client";
import { createProject, createSubjectSet, createUser, createWorkflow, uid } from "@/test/factories";
import { createCollection } from "@/test/factories-collections";
import { loadCollection, loadCollectionsPage, loadFavourites } from "./collections";
import { loadProfile } from "./profile";
import { loadRecents } from "./recents";
import { loadSettings } from "./account";
import { profileName, visibleCollectionName } from "./titles";

const actorOf = (u: User) => ({ user: { id: u.id, login: u.login, displayName: u.displayName, admin: u.admin }, scopes: null });

let volunteer: User, stranger: User, admin: User, owner: User;
let open: { id: number }, closed: { id: number };
let openSubjects: { id: number }[], closedSubjects: { id: number }[];

beforeAll(async () => {
  [volunteer, stranger, admin, owner] = await Promise.all([createUser(), createUser(), createUser({ admin: true }), createUser()]);
  open = await createProject(owner.id, { displayName: `Open ${uid()}` });
  closed = await createProject(owner.id, { displayName: `Closed ${uid()}`, private: true });
  openSubjects = (await createSubjectSet(open.id, 4)).subjects;
  closedSubjects = (await createSubjectSet(closed.id, 1)).subjects;
});

describe("loadCollection", () => {
  let priv: { id: number }, pub: { id: number };
  beforeAll(async () => {
    priv = await createCollection({ userId: volunteer.id }, { private: true, subjectIds: [openSubjects[0].id, openSubjects[1].id] });
    // Newest last: openSubjects[2] was added after the subject of the private project.
    pub = await createCollection({ userId: volunteer.id }, { private: false, subjectIds: [closedSubjects[0].id, openSubjects[2].id] });
  });

  it.each<[string, () => Actor, "private" | "public", boolean | null]>([
    ["the owner, private", () => actorOf(volunteer), "private", true],
    ["an admin, private", () => actorOf(admin), "private", true],
    ["a stranger, private: not found", () => actorOf(stranger), "private", null],
    ["nobody signed in, private: not found", () => ANONYMOUS, "private", null],
    ["a stranger, public: seen, not editable", () => actorOf(stranger), "public", false],
    ["nobody signed in, public: seen, not editable", () => ANONYMOUS, "public", false],
  ])("%s", async (_, who, which, editable) => {
    const loaded = await loadCollection((which === "private" ? priv : pub).id, who());
    if (editable === null) return expect(loaded).toBeNull();
    expect(loaded).not.toBeNull();
    expect(loaded!.canEdit).toBe(editable);
    expect(loaded!.canRemove).toBe(editable);
  });

  it("lists the subjects newest first, with media and project, leaving out those of projects the visitor may not see", async () => {
    const loaded = await loadCollection(pub.id, actorOf(stranger));
    expect(loaded!.subjects.map((s) => s.id)).toEqual([openSubjects[2].id]);
    expect(loaded!.subjects[0]).toMatchObject({
      projectId: open.id,
      mime: "image/png",
      url: "https://example.test/2.png",
      metadata: { n: "2" },
    });
    expect(loaded!.collection.subjectsCount).toBe(2);
    expect((await loadCollection(priv.id, actorOf(volunteer)))!.subjects.map((s) => s.id)).toEqual([
      openSubjects[1].id,
      openSubjects[0].id,
    ]);
    // The project's owner sees the private project's subject too.
    expect((await loadCollection(pub.id, actorOf(owner)))!.subjects.map((s) => s.id)).toEqual([openSubjects[2].id, closedSubjects[0].id]);
  });

  it("the page title names a collection only to who may see it", async () => {
    expect(await visibleCollectionName(priv.id, actorOf(volunteer))).toMatch(/^Collection /);
    expect(await visibleCollectionName(priv.id, actorOf(stranger))).toBeNull();
    expect(await visibleCollectionName(pub.id, ANONYMOUS)).toMatch(/^Collection /);
  });
});

describe("loadCollectionsPage", () => {
  it("mine: all my collections but favourites; others': public, non-empty ones of other people", async () => {
    const me = await createUser();
    const other = await createUser();
    const mine = await createCollection({ userId: me.id }, { private: true });
    const fav = await createCollection({ userId: me.id }, { favorite: true, projectIds: [open.id], subjectIds: [openSubjects[0].id] });
    const shared = await createCollection({ userId: other.id }, { private: false, subjectIds: [openSubjects[3].id] });
    const hidden = await createCollection({ userId: other.id }, { private: true, subjectIds: [openSubjects[3].id] });
    const empty = await createCollection({ userId: other.id }, { private: false });
    const page = await loadCollectionsPage(actorOf(me));
    expect(page.mine.map((c) => c.id)).toEqual([mine.id]);
    const others = page.others.map((c) => c.id);
    expect(others).toContain(shared.id);
    for (const id of [hidden.id, empty.id, fav.id, mine.id]) expect(others).not.toContain(id);
    expect(page.others.find((c) => c.id === shared.id)).toMatchObject({
      subjectsCount: 1,
      thumbnail: "https://example.test/3.png",
      private: false,
    });
  });
});

describe("loadFavourites", () => {
  it("the subjects of my favourites collections, newest first, of every project or of one", async () => {
    const me = await createUser();
    const second = await createProject(owner.id);
    const [s2] = (await createSubjectSet(second.id, 1)).subjects;
    await createCollection(
      { userId: me.id },
      { favorite: true, projectIds: [open.id], subjectIds: [openSubjects[0].id, openSubjects[1].id] },
    );
    const f2 = await createCollection({ userId: me.id }, { favorite: true, projectIds: [second.id], subjectIds: [s2.id] });
    // Someone else's favourites and my ordinary collections are not mine.
    await createCollection({ userId: stranger.id }, { favorite: true, projectIds: [open.id], subjectIds: [openSubjects[2].id] });
    await createCollection({ userId: me.id }, { subjectIds: [openSubjects[3].id] });
    const all = await loadFavourites(actorOf(me));
    expect(all.subjects.map((s) => s.id)).toEqual([s2.id, openSubjects[1].id, openSubjects[0].id]);
    expect(all.subjects[0].collectionId).toBe(f2.id);
    expect(all.projects.map((p) => p.id).sort()).toEqual([open.id, second.id].sort());
    expect((await loadFavourites(actorOf(me), second.id)).subjects.map((s) => s.id)).toEqual([s2.id]);
  });
});

describe("loadRecents", () => {
  it("my classified subjects, newest first, each once, with the project; none of projects I may no longer see", async () => {
    const me = await createUser();
    const wf = await createWorkflow(open.id);
    const hiddenProject = await createProject(owner.id);
    const hiddenWf = await createWorkflow(hiddenProject.id);
    const [hiddenSubject] = (await createSubjectSet(hiddenProject.id, 1)).subjects;
    const classify = (workflow: { id: number; projectId: number }, subjectIds: number[], userId = me.id) =>
      db().classification.create({
        data: { projectId: workflow.projectId, workflowId: workflow.id, userId, subjectIds, workflowVersion: "1.1" },
      });
    await classify(wf, [openSubjects[0].id]);
    await classify(hiddenWf, [hiddenSubject.id]);
    await classify(wf, [openSubjects[1].id]);
    await classify(wf, [openSubjects[0].id]);
    await classify(wf, [openSubjects[3].id], stranger.id);
    await db().project.update({ where: { id: hiddenProject.id }, data: { private: true } });
    const recents = await loadRecents(actorOf(me));
    expect(recents.map((r) => r.subjectId)).toEqual([openSubjects[0].id, openSubjects[1].id]);
    expect(recents[0]).toMatchObject({ projectId: open.id, workflowId: wf.id, mime: "image/png" });
    expect(recents[0].projectName).toMatch(/^Open /);
  });
});

describe("loadProfile", () => {
  it("the volunteer sees their projects with their counts; another sees only public parts; a deleted account is gone", async () => {
    const me = await createUser();
    await db().projectPreference.createMany({
      data: [
        { userId: me.id, projectId: open.id, activityCount: 7 },
        { userId: me.id, projectId: closed.id, activityCount: 3 },
      ],
    });
    const priv = await createCollection({ userId: me.id }, { private: true });
    const pub = await createCollection({ userId: me.id }, { private: false });
    const mine = await loadProfile(me.login, actorOf(me));
    expect(mine).toMatchObject({ self: true, user: { id: me.id, displayName: me.displayName } });
    // A project made private (I hold no role on it now) is left out.
    expect(mine!.projects).toEqual([{ id: open.id, displayName: expect.stringMatching(/^Open /), classifications: 7 }]);
    expect(mine!.collections.map((c) => c.id).sort()).toEqual([priv.id, pub.id].sort());
    for (const visitor of [actorOf(stranger), ANONYMOUS]) {
      const theirs = await loadProfile(me.login.toUpperCase(), visitor);
      expect(theirs).toMatchObject({ self: false, projects: [] });
      expect(theirs!.collections.map((c) => c.id)).toEqual([pub.id]);
    }
    expect(await profileName(me.login)).toBe(me.displayName);

    // Classifications the folder has not moved into the counts yet count too (the chart counts them):
    // on a project already listed, and on one new to the volunteer; none on the private one shows it.
    const third = await createProject(owner.id, { displayName: `Third ${uid()}` });
    await pool().query(
      `INSERT INTO classification_count_outbox (classification_id, project_id, workflow_id, user_id, seconds)
       SELECT -g, p, 0, $1, 1 FROM unnest($2::int[]) WITH ORDINALITY AS x(p, g)`,
      [me.id, [open.id, third.id, third.id, closed.id, third.id]],
    );
    try {
      expect((await loadProfile(me.login, actorOf(me)))!.projects).toEqual([
        { id: open.id, displayName: expect.stringMatching(/^Open /), classifications: 8 },
        { id: third.id, displayName: expect.stringMatching(/^Third /), classifications: 3 },
      ]);
    } finally {
      await pool().query(`DELETE FROM classification_count_outbox WHERE user_id = $1`, [me.id]);
    }
    await disableUser(me.id);
    expect(await loadProfile(me.login, actorOf(stranger))).toBeNull();
    expect(await loadProfile(`deleted-${me.id}`, actorOf(stranger))).toBeNull();
    expect(await profileName(`deleted-${me.id}`)).toBeNull();
    expect(await loadProfile(`nobody_${uid()}`, ANONYMOUS)).toBeNull();
  });
});

describe("loadSettings", () => {
  it("the user's own editable fields", async () => {
    const me = await createUser();
    await db().user.update({ where: { id: me.id }, data: { languages: ["fr"], globalEmailCommunication: true } });
    expect(await loadSettings(me.id)).toMatchObject({
      login: me.login,
      email: me.email,
      languages: ["fr"],
      globalEmailCommunication: true,
      projectEmailCommunication: false,
    });
  });
});
