import { db } from "@/lib/db";
import { createProject, signedInUser, uid } from "./factories";

// Field guides, tutorials and the people around one project, for tests (each uniquely named).

export const PROJECT_ROLE_NAMES = ["collaborator", "tester", "scientist", "moderator", "translator", "expert"] as const;
export const PEOPLE = ["anonymous", "stranger", ...PROJECT_ROLE_NAMES, "owner", "admin"] as const;
export type Person = (typeof PEOPLE)[number];

/**
 * Who may create a field guide or tutorial (the same rule for both): on a private project (in its primary
 * language), and on a public one in its primary language (en) and in another (fr). Editors write any
 * language, translators only the others; outsiders of a private project get 404.
 */
export const CREATE_STATUSES: Record<Person, { private: number; en: number; fr: number }> = {
  anonymous: { private: 401, en: 401, fr: 401 },
  stranger: { private: 404, en: 403, fr: 403 },
  collaborator: { private: 201, en: 201, fr: 201 },
  tester: { private: 403, en: 403, fr: 403 },
  scientist: { private: 403, en: 403, fr: 403 },
  moderator: { private: 403, en: 403, fr: 403 },
  translator: { private: 201, en: 403, fr: 201 },
  expert: { private: 403, en: 403, fr: 403 },
  owner: { private: 201, en: 201, fr: 201 },
  admin: { private: 201, en: 201, fr: 201 },
};

/** A project and one signed-in user per person (each role holder with that one role); anonymous has no token. */
export async function projectWithPeople(opts: { private?: boolean; primaryLanguage?: string } = {}) {
  const owner = await signedInUser();
  const project = await createProject(owner.user.id, { private: opts.private });
  if (opts.primaryLanguage) await db().project.update({ where: { id: project.id }, data: { primaryLanguage: opts.primaryLanguage } });
  const tokens: Partial<Record<Person, string>> = { owner: owner.token };
  tokens.stranger = (await signedInUser()).token;
  tokens.admin = (await signedInUser({ admin: true })).token;
  for (const role of PROJECT_ROLE_NAMES) {
    const member = await signedInUser();
    await db().projectRole.create({ data: { projectId: project.id, userId: member.user.id, roles: [role] } });
    tokens[role] = member.token;
  }
  return { project, owner, token: (who: Person) => tokens[who] };
}

export async function createFieldGuide(projectId: number, data: { language?: string; items?: object[] } = {}) {
  return db().fieldGuide.create({
    data: {
      projectId,
      language: data.language ?? "en",
      items: (data.items ?? [{ title: `Item ${uid()}`, content: "Looks like this" }]) as object,
    },
  });
}

export async function createTutorial(
  projectId: number,
  data: { language?: string; kind?: string | null; displayName?: string; workflowIds?: number[] } = {},
) {
  const tutorial = await db().tutorial.create({
    data: {
      projectId,
      language: data.language ?? "en",
      kind: data.kind ?? null,
      displayName: data.displayName ?? `Tutorial ${uid()}`,
      steps: [{ content: "Step one" }],
    },
  });
  for (const workflowId of data.workflowIds ?? []) await db().workflowTutorial.create({ data: { workflowId, tutorialId: tutorial.id } });
  return tutorial;
}

/** An attached image of a record, as the media endpoints store it (type e.g. field_guide_attached_image). */
export async function attachImage(linkedType: "field_guides" | "tutorials", linkedId: number) {
  return db().medium.create({
    data: {
      type: `${linkedType.replace(/s$/, "")}_attached_image`,
      linkedType,
      linkedId,
      contentType: "image/png",
      src: `media/${linkedType}/${linkedId}/${uid()}.png`,
    },
  });
}
