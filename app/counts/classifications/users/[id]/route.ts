// GET /counts/classifications/users/<id>: a volunteer's own counts and time spent (that user or an admin).
import { userCountsRoute } from "@/lib/counts/counts-route";

export const GET = userCountsRoute;
