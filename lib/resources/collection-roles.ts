import { collectionRoleRecords, type CollectionRoleRow } from "./collection-role-records";
import { collectionInclude } from "./collections";
import type { ResourceDef } from "@/lib/http/resource-def";

/** The collection_roles resource: its records (./collection-role-records.ts) and their collection as an include. */
export const collectionRoles: ResourceDef<CollectionRoleRow> = {
  ...collectionRoleRecords,
  includes: {
    collection: collectionInclude(),
  },
};
