import type { OrganizationPage, Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { canOnOrganization, organizationReadScope } from "@/lib/policies/organization-policy";
import { organizations } from "./organizations";
import { pageResource } from "./pages";

// An organization's pages: /api/organizations/<id>/pages[/<page id>] (lib/resources/pages.ts).
type OrganizationPageRow = OrganizationPage & { organization: { primaryLanguage: string } };

export const organizationPages = pageResource<OrganizationPageRow, Parameters<typeof organizations.serialize>[0]>(
  {
    type: "organization_pages",
    table: "organization_pages",
    model: "organizationPage",
    writeScope: "organization",
    parentType: "organizations",
    parentLink: "organization",
    parentField: "organizationId",
    parentRelation: "organization",
    parentId: (row) => row.organizationId,
    primaryLanguage: (row) => row.organization.primaryLanguage,
    queryInclude: { organization: { select: { primaryLanguage: true } } },
    parentReadScope: organizationReadScope,
    canOnParent: canOnOrganization,
    includes: {
      organization: {
        type: "organizations",
        load: async (rows, actor) => {
          const found = await db().organization.findMany({
            where: { AND: [{ id: { in: [...new Set(rows.map((r) => r.organizationId))] } }, organizationReadScope(actor)] },
            include: organizations.queryInclude as Prisma.OrganizationInclude,
          });
          return found.map((o) => ({
            record: organizations.serialize(o as never, actor),
            parentIds: rows.filter((r) => r.organizationId === o.id).map((r) => r.id),
          }));
        },
      },
    },
  },
  organizations,
);
