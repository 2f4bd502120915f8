// GET /api/users/<id>/recents: the volunteer's recently classified subjects (lib/handlers/recents.ts).
import { userRecents } from "@/lib/handlers/recents";
import { apiRoute } from "@/lib/http/api-route";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = apiRoute({ scope: "none" }, async (ctx) => userRecents(ctx, await ctx.actor()));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
