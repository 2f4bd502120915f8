import type { AdminAction } from "@/lib/generated/prisma/client";
import type { ResourceDef } from "@/lib/http/resource-def";
import { parseIdList } from "@/lib/text/params";
import { iso } from "./wire";

// What site admins did (lib/domain/admin-actions.ts): for admins only; to anyone else the list is empty
// and a record a 404. Written only by the changes themselves.

export function serializeAdminAction(a: AdminAction) {
  return {
    id: String(a.id),
    target_type: a.targetType,
    target_id: String(a.targetId),
    // change: fields set through a record's own route; refusal: a review refused (with the admin's reason).
    kind: a.kind,
    changes: a.changes as Record<string, { from: unknown; to: unknown }>,
    reason: a.reason,
    created_at: iso(a.createdAt),
    href: `/admin_actions/${a.id}`,
    links: { admin: String(a.adminId) },
  };
}

export const adminActions: ResourceDef<AdminAction> = {
  type: "admin_actions",
  table: "admin_actions",
  model: "adminAction",
  tokenScopes: { read: "user", write: "user" },
  serialize: serializeAdminAction,
  linkTemplates: { admin: { href: "/users/{admin_actions.admin}", type: "users" } },
  filters: {
    target_type: (v) => ({ targetType: v }),
    kind: (v) => ({ kind: v }),
    target_id: (v) => ({ targetId: { in: parseIdList(v, "target_id") } }),
    admin_id: (v) => ({ adminId: { in: parseIdList(v, "admin_id") } }),
  },
  sortable: { id: "id", created_at: "createdAt" },
  defaultSort: "-id",
  readScope: (actor) => (actor.user?.admin ? {} : { id: -1 }),
  can: (_actor, action) => action === "show",
};
