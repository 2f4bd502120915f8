import { db } from "@/lib/db";
import { uid } from "./factories";

// Organizations, their roles and pages, and project pages, for tests (each uniquely named).

export async function createOrganization(
  ownerId: number,
  data: { listed?: boolean; displayName?: string; categories?: string[]; tags?: string[]; primaryLanguage?: string } = {},
) {
  const owner = await db().user.findUniqueOrThrow({ where: { id: ownerId } });
  const displayName = data.displayName ?? `Organization ${uid()}`;
  const organization = await db().organization.create({
    data: {
      ownerId,
      displayName,
      description: "An organization",
      slug: `${owner.login.toLowerCase()}/${displayName.toLowerCase().replace(/\s+/g, "-")}`,
      listed: data.listed ?? false,
      listedAt: data.listed ? new Date() : null,
      categories: data.categories ?? [],
      tags: data.tags ?? [],
      primaryLanguage: data.primaryLanguage ?? "en",
    },
  });
  await db().organizationRole.create({ data: { organizationId: organization.id, userId: ownerId, roles: ["owner"] } });
  return organization;
}

export async function grantOrganizationRole(organizationId: number, userId: number, roles: string[]) {
  return db().organizationRole.create({ data: { organizationId, userId, roles } });
}

export async function linkProject(organizationId: number, projectId: number) {
  return db().organizationProject.create({ data: { organizationId, projectId } });
}

export async function createOrganizationPage(
  organizationId: number,
  data: { urlKey?: string; language?: string; title?: string; content?: string } = {},
) {
  return db().organizationPage.create({
    data: {
      organizationId,
      urlKey: data.urlKey ?? `key_${uid()}`,
      language: data.language ?? "en",
      title: data.title ?? "About",
      content: data.content ?? "Text",
    },
  });
}

export async function createProjectPage(
  projectId: number,
  data: { urlKey?: string; language?: string; title?: string; content?: string } = {},
) {
  return db().projectPage.create({
    data: {
      projectId,
      urlKey: data.urlKey ?? `key_${uid()}`,
      language: data.language ?? "en",
      title: data.title ?? "Science case",
      content: data.content ?? "Text",
    },
  });
}
