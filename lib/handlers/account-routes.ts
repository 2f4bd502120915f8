import { db } from "@/lib/db";
import { disableUser } from "@/lib/domain/accounts";
import { forbidden, notFound, unauthorized } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { showResponse } from "@/lib/http/resource-routes";
import { users } from "@/lib/resources/users";
import { parsePathId } from "@/lib/text/params";

/** GET /api/me: the token's user, with every field of the contract's User table. */
export const showMe = apiRoute({ scope: "public" }, async (ctx) => {
  const actor = await ctx.actor();
  if (!actor.user) throw unauthorized("You must be signed in to read /me");
  return showResponse(users, await db().user.findUniqueOrThrow({ where: { id: actor.user.id } }), ctx);
});

/** DELETE /api/users/<id>: the user (or an admin) disables the account (lib/domain/accounts.ts). */
export const deleteAccount = apiRoute({ scope: "user" }, async (ctx) => {
  const id = parsePathId(ctx.params.id, "id");
  const actor = await ctx.actor();
  if (!actor.user) throw unauthorized("Sign in to delete an account");
  if (!(await db().user.findFirst({ where: { id, disabledAt: null }, select: { id: true } })))
    throw notFound(`Could not find users with id='${id}'`);
  if (actor.user.id !== id && !actor.user.admin) throw forbidden("Only the user or an admin may delete this account");
  await disableUser(id);
  return new Response(null, { status: 204 });
});
