import { z } from "zod";
import { collectionRoutes } from "@/lib/http/resource-routes";
import type { BaseRow, ResourceDef } from "./types";

// What field guides and tutorials share: they belong to a project, are written in one language, and are
// listed in English unless a language is asked for (as the reference platform and its clients expect).

/** The language a list shows when the request names none. */
export const DEFAULT_CONTENT_LANGUAGE = "en";

/** A medium id as a string ("789"): an item's icon, a step's media. */
export const ZMediumId = z.string().regex(/^[1-9]\d{0,9}$/, "must be the id (a string of digits) of one of the record's attached images");

/**
 * GET (list) and POST on /api/<type>, the list applying `defaults` for parameters the request leaves out or
 * empty (its paging hrefs then carry them, so following them keeps the same list).
 */
export function collectionRoutesWithDefaults<R extends BaseRow>(def: ResourceDef<R>, defaults: Record<string, string>) {
  const routes = collectionRoutes(def);
  const GET: typeof routes.GET = (req, route) => {
    const url = new URL(req.url);
    const missing = Object.entries(defaults).filter(([name]) => !url.searchParams.get(name));
    if (!missing.length) return routes.GET(req, route);
    for (const [name, value] of missing) url.searchParams.set(name, value);
    return routes.GET(new Request(url, req), route);
  };
  return { GET, POST: routes.POST };
}
