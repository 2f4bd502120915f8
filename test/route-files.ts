import fs from "node:fs";
import path from "node:path";

// The app's route files, found the way Next finds them (every route.ts under app/), so a test that walks
// the routes covers a new one without being told.

export const APP = path.resolve(import.meta.dirname, "../app");

/** The methods a route file may export (Next answers HEAD from GET). */
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Every route.ts under `dir` (all of app/ by default). */
export function routeFiles(dir: string = APP): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : []));
}

/** A route file's path template, e.g. /api/projects/[id]/links/[link]. */
export function routeTemplate(file: string): string {
  return `/${path.relative(APP, path.dirname(file)).split(path.sep).join("/")}`;
}
