import type { Actor } from "@/lib/auth/actor";
import type { Organization } from "@/lib/generated/prisma/client";
import { mediaLink } from "./media";
import { iso, userLink } from "./wire";

// An organization as it is read and answered, apart from its resource (./organizations.ts), so a project
// can include its organizations without the two modules importing each other.

export type OrganizationRow = Organization & {
  owner: { id: number; login: string; displayName: string };
  roles: { id: number }[];
  projects: { projectId: number; project: { private: boolean } }[];
};

export const organizationQueryInclude = {
  owner: { select: { id: true, login: true, displayName: true } },
  roles: { select: { id: true }, orderBy: { id: "asc" } },
  projects: { select: { projectId: true, project: { select: { private: true } } }, orderBy: { projectId: "asc" } },
} as const;

export function serializeOrganization(o: OrganizationRow, actor: Actor) {
  return {
    id: String(o.id),
    display_name: o.displayName,
    title: o.title || o.displayName,
    description: o.description,
    introduction: o.introduction,
    announcement: o.announcement,
    slug: o.slug,
    primary_language: o.primaryLanguage,
    available_languages: o.availableLanguages,
    listed: o.listed,
    listed_at: iso(o.listedAt),
    urls: o.urls,
    categories: o.categories,
    tags: o.tags,
    activated_state: o.activatedState,
    created_at: iso(o.createdAt),
    updated_at: iso(o.updatedAt),
    href: `/organizations/${o.id}`,
    links: {
      owner: userLink(o.owner),
      organization_roles: o.roles.map((r) => String(r.id)),
      // Private projects join the list in `present` when the actor may see them.
      projects: o.projects.filter((p) => actor.user?.admin || !p.project.private).map((p) => String(p.projectId)),
      pages: { href: `/organizations/${o.id}/pages`, type: "organization_pages" },
      avatar: mediaLink("organizations", o.id, "avatar"),
      background: mediaLink("organizations", o.id, "background"),
      attached_images: mediaLink("organizations", o.id, "attached_images"),
    },
  };
}
