// GET /api/me: the token's user, with every field of the contract's User table.
import { apiRoute } from "@/lib/http/api-route";
import { unauthorized } from "@/lib/errors";
import { showResponse } from "@/lib/http/resource-routes";
import { db } from "@/lib/db";
import { users } from "@/lib/resources/users";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = apiRoute({ scope: "public" }, async (ctx) => {
  const actor = await ctx.actor();
  if (!actor.user) throw unauthorized("You must be signed in to read /me");
  return showResponse(users, await db().user.findUniqueOrThrow({ where: { id: actor.user.id } }), ctx);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
