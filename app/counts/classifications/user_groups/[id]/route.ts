// GET /counts/classifications/user_groups/<id>: a user group's members' counts (together, and per member as its stats_visibility allows).
import { userGroupCountsRoute } from "@/lib/counts/counts-route";

export const GET = userGroupCountsRoute;
