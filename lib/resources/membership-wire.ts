import type { Membership } from "@/lib/generated/prisma/client";
import { iso } from "./wire";

// A membership as answered, apart from its resource (./memberships.ts), so a user group can include its
// memberships without the two modules importing each other.

export function serializeMembership(m: Membership) {
  return {
    id: String(m.id),
    state: m.state,
    roles: m.roles,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    href: `/memberships/${m.id}`,
    links: { user: String(m.userId), user_group: String(m.userGroupId) },
  };
}
