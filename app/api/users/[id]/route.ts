// GET/PUT /api/users/<id>: one user; a user edits their own profile.
// DELETE /api/users/<id>: the user (or an admin) disables the account (lib/domain/accounts.ts).
import { disableUser } from "@/lib/domain/accounts";
import { forbidden, notFound, unauthorized } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { parsePathId } from "@/lib/text/params";
import { memberRoutes } from "@/lib/http/resource-routes";
import { users } from "@/lib/resources/users";
import { db } from "@/lib/db";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT } = memberRoutes(users);

export const DELETE = apiRoute({ scope: "user" }, async (ctx) => {
  const id = parsePathId(ctx.params.id, "id");
  const actor = await ctx.actor();
  if (!actor.user) throw unauthorized("Sign in to delete an account");
  if (!(await db().user.findFirst({ where: { id, disabledAt: null }, select: { id: true } })))
    throw notFound(`Could not find users with id='${id}'`);
  if (actor.user.id !== id && !actor.user.admin) throw forbidden("Only the user or an admin may delete this account");
  await disableUser(id);
  return new Response(null, { status: 204 });
});

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
