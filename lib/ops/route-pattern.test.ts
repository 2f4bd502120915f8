// The route label of the request log and the HTTP metrics: the app's route pattern, never the raw path.
import { describe, expect, it } from "vitest";
import { appRouteTemplates, routeMatcher } from "./route-pattern";

describe("route patterns", () => {
  const match = routeMatcher([
    "/",
    "/api/projects",
    "/api/projects/[id]",
    "/api/projects/[id]/links/[link]",
    "/api/projects/export",
    "/api/[...path]",
    "/uploads/[...key]",
    "/docs/[[...slug]]",
    "/health",
  ]);

  it.each([
    ["/", "/"],
    ["/api/projects", "/api/projects"],
    ["/api/projects/", "/api/projects"],
    ["/api/projects/17", "/api/projects/[id]"],
    ["/api/projects/export", "/api/projects/export"],
    ["/api/projects/17/links/subject_sets", "/api/projects/[id]/links/[link]"],
    ["/api/projects/17/nothing/here/at/all", "/api/[...path]"],
    ["/api/anything", "/api/[...path]"],
    ["/uploads/subjects/a/b.png", "/uploads/[...key]"],
    ["/docs", "/docs/[[...slug]]"],
    ["/docs/a/b", "/docs/[[...slug]]"],
    ["/health", "/health"],
    ["/health/deeper", "unmatched"],
    ["/_next/static/chunks/abc.js", "/_next"],
    ["/someone%40example.org", "unmatched"],
    [`/${"a/".repeat(40)}`, "unmatched"],
  ])("%s is %s", (path, pattern) => expect(match(path)).toBe(pattern));

  it("reads the app's routes and pages (with or without a build)", () => {
    const templates = appRouteTemplates();
    for (const t of ["/api/projects/[id]", "/health", "/ready", "/metrics", "/projects/[id]/classify", "/"]) expect(templates).toContain(t);
    const m = routeMatcher(templates);
    expect(m("/api/projects/12")).toBe("/api/projects/[id]");
    expect(m("/projects/12/classify")).toBe("/projects/[id]/classify");
  });
});
