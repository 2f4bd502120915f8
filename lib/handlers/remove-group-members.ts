import { db } from "@/lib/db";
import { apiRoute } from "@/lib/http/api-route";
import { forbidden, unprocessable } from "@/lib/errors";
import { parseIdList, parsePathId } from "@/lib/text/params";
import { findVisible, requireWriter } from "@/lib/http/resource-routes";
import { isGroupAdmin } from "@/lib/policies/user-group-policy";
import { userGroups } from "@/lib/resources/user-groups";

/**
 * DELETE /api/user_groups/<id>/links/users/<user ids>: those members' memberships become inactive (the
 * records stay). The group's admins remove anyone; any member may remove themself (the reference
 * platform's way of leaving a group), which the generic link route, open to editors only, cannot express.
 */
export const removeGroupMembersRoute = apiRoute({ scope: userGroups.tokenScopes.write }, async (ctx) => {
  const actor = await ctx.actor();
  requireWriter(actor);
  if (ctx.params.link !== "users") throw unprocessable(`'${ctx.params.link}' is not a writable link of user_groups; writable: users`);
  const groupId = parsePathId(ctx.params.id, "user_groups");
  const userIds = parseIdList(ctx.params.ids ?? "", "users");
  await db().$transaction(
    async (tx) => {
      // The group row first, as every other write to the group's links locks it (lib/domain/group-memberships.ts).
      await tx.$queryRawUnsafe(`SELECT 1 FROM user_groups WHERE id = $1 FOR UPDATE`, groupId);
      const group = await findVisible(userGroups, groupId, actor, tx, true);
      const onlyThemself = userIds.every((id) => id === actor.user.id);
      if (!onlyThemself && !(await isGroupAdmin(actor, group.id, tx))) throw forbidden("Only the group's admins may remove other members");
      await userGroups.links!.users.remove({ actor, tx }, group, userIds);
    },
    { timeout: 15_000 },
  );
  return new Response(null, { status: 204 });
});
