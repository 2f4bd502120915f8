// The import rules CI holds the tree to (npm run lint:deps, in npm test after npm run lint; docs/architecture.md,
// "Layers and the import rules", draws them). Every folder of lib/ (and lib/env.ts, lib/generated) is a unit
// with a place in the layers below and a positive list of the units it may import; lib/engine is three
// units: its pure core, run/ (the pipeline) and http/. A unit's rule refuses any import of the project's own
// code (lib/, app/, components/, inngest/, scripts/, bench/, test/, e2e/, top-level files) that is not in its
// own unit, in its list or in EVERYWHERE. The lists only point down, so no import runs up a layer or round
// a circle of folders (scripts/dependency-rules.test.ts checks that the lists only point down, that every
// entry of lib/ has a unit here, and plants forbidden imports to see each rule fail).
//
//   entry points:  lib/backup (npm run backup and restore), lib/ops (the server process: probes, metrics,
//                  request log, shutdown), lib/jobs (the worker and its tasks; app/, inngest/, scripts/,
//                  bench/ sit beside them)
//   transport:     lib/handlers, lib/pages, lib/engine/http  over  lib/resources  over  lib/http
//   engine:        lib/engine/run (the decision engine's pipeline)
//   domain:        lib/domain (what happens), lib/counts (the classification counters)
//   below domain:  lib/policies (who may), lib/storage (objects, signed URLs)  over  lib/auth (who is asking)
//   shared with the browser (pure, no I/O): lib/lab over lib/classifier over lib/tasks over lib/i18n,
//                  lib/markdown and lib/engine (the engine's pure core)
//   bottom:        lib/db + lib/generated (the database), lib/net, lib/mail over lib/log over lib/env.ts; lib/text
//
// components/ (the browser) imports only the shared units and lib/text, and reaches nothing else through them.

/**
 * What every unit may import whatever its list says: lib/errors.ts (AppError, the one error type, with codes
 * in the domain's words; lib/http/respond.ts maps them to HTTP statuses in one place). It is pure and
 * imports nothing (rule errors-is-a-leaf), so the browser may reach it too.
 */
const ERRORS = "^lib/errors\\.ts$";
const EVERYWHERE = [ERRORS];

const HELPERS = ["lib/text", "lib/log", "lib/env.ts"];
const DATABASE = ["lib/db", "lib/generated"];
const SERVICES = [...DATABASE, "lib/net", "lib/mail"];
const SHARED = ["lib/lab", "lib/classifier", "lib/tasks", "lib/i18n", "lib/engine", "lib/markdown"];
const BELOW_DOMAIN = ["lib/policies", "lib/storage", "lib/auth"];
const DOMAIN = ["lib/domain", "lib/counts"];
/** The domain's view of the shared code: everything but the engine's core (the domain never calls the engine). */
const SHARED_BUT_ENGINE = SHARED.filter((u) => u !== "lib/engine");

/**
 * Every unit of lib/, top to bottom: its layer, what it is, and the units it may import (besides its own
 * modules and EVERYWHERE).
 * @type {{ unit: string, layer: string, what: string, may: string[] }[]}
 */
const UNITS = [
  {
    unit: "lib/backup",
    layer: "entry points",
    what: "npm run backup and restore: reads the whole database and DATA_DIR; scripts and tests run it, nothing in lib/ calls it",
    may: [...BELOW_DOMAIN, ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/ops",
    layer: "entry points",
    what: "the server process: health and readiness, the metrics' exposition, the request log, shutdown (instrumentation.ts, scripts and the probe routes use it; the rest of lib/ reports through lib/log)",
    may: ["lib/jobs", "lib/engine/run", "lib/http", ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/jobs",
    layer: "entry points",
    what: "the worker and its tasks: calls into lib/, and nothing in lib/ calls it (its queue is lib/db/job-queue.ts)",
    may: ["lib/engine/run", ...DOMAIN, ...BELOW_DOMAIN, ...SHARED, ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/handlers",
    layer: "transport",
    what: "route handlers: only app/ route files bind them",
    may: ["lib/resources", "lib/http", ...DOMAIN, ...BELOW_DOMAIN, ...SHARED, ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/pages",
    layer: "transport",
    what: "the pages' loaders: what a server-rendered page reads, for one visitor (server only: components type what they read themselves)",
    may: ["lib/resources", "lib/http", ...DOMAIN, ...BELOW_DOMAIN, ...SHARED, ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/engine/http",
    layer: "transport",
    what: "the engine's endpoints",
    may: ["lib/http", "lib/engine/run", ...DOMAIN, ...BELOW_DOMAIN, ...SHARED, ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/resources",
    layer: "transport",
    what: "a ResourceDef per type, served by the generic routes of lib/http",
    may: ["lib/http", ...DOMAIN, ...BELOW_DOMAIN, ...SHARED, ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/http",
    layer: "transport",
    what: "the generic routes, request bodies, answers, CORS: it takes a ResourceDef (lib/http/resource-def.ts) and never imports one",
    may: [...BELOW_DOMAIN, ...SHARED, ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/engine/run",
    layer: "engine",
    what: "the decision engine's pipeline: runs from jobs, never from a request (only lib/engine/http is transport)",
    may: [...DOMAIN, ...BELOW_DOMAIN, ...SHARED, ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/domain",
    layer: "domain",
    what: "what happens: knows no requests or answers, never calls the engine or the worker",
    may: [...BELOW_DOMAIN, ...SHARED_BUT_ENGINE, ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/counts",
    layer: "domain",
    what: "the classification counters, beside the domain",
    may: [...BELOW_DOMAIN, ...SHARED_BUT_ENGINE, ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/policies",
    layer: "below domain",
    what: "who may: below the domain that asks it",
    may: ["lib/auth", ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/storage",
    layer: "below domain",
    what: "objects and signed URLs: serves the domain and the handlers",
    may: ["lib/auth", ...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/auth",
    layer: "below domain",
    what: "who is asking: tokens, sessions, sign-in and its rate limits (the client address is lib/net/peer-address.ts)",
    may: [...SERVICES, ...HELPERS],
  },
  {
    unit: "lib/lab",
    layer: "shared with the browser",
    what: "the lab's editing logic",
    may: ["lib/classifier", "lib/tasks", "lib/i18n", "lib/engine", "lib/text"],
  },
  {
    unit: "lib/classifier",
    layer: "shared with the browser",
    what: "the classifier's logic: task flow, feedback, the pending queue",
    may: ["lib/tasks", "lib/i18n", "lib/engine", "lib/text"],
  },
  {
    unit: "lib/tasks",
    layer: "shared with the browser",
    what: "the task types: schemas, values, drawing marks",
    may: ["lib/i18n", "lib/engine", "lib/text"],
  },
  {
    unit: "lib/markdown",
    layer: "shared with the browser",
    what: "Markdown to safe HTML (markdown-it, linear, no raw HTML); the server renders it on a worker thread (off-thread.ts)",
    may: [],
  },
  {
    unit: "lib/i18n",
    layer: "shared with the browser",
    what: "translatable strings and language names (reading translations is lib/domain/translate.ts)",
    may: ["lib/text"],
  },
  {
    unit: "lib/engine",
    layer: "shared with the browser",
    what: "the engine's pure core (outside run/ and http/): no database, no domain, no transport",
    may: ["lib/text"],
  },
  {
    unit: "lib/db",
    layer: "bottom",
    what: "Prisma, the pg pools, SQL helpers, the job queue: only the environment, the log and the generated client",
    may: ["lib/generated", "lib/log", "lib/env.ts"],
  },
  {
    unit: "lib/generated",
    layer: "bottom",
    what: "the generated Prisma client (part of the database layer; not read, only imported)",
    may: [],
  },
  {
    unit: "lib/net",
    layer: "bottom",
    what: "outbound fetch and its address policy, the client address",
    may: [...HELPERS],
  },
  {
    unit: "lib/mail",
    layer: "bottom",
    what: "the mailer",
    may: [...HELPERS],
  },
  {
    unit: "lib/log",
    layer: "bottom",
    what: "the log",
    may: ["lib/env.ts", "lib/text"],
  },
  {
    unit: "lib/env.ts",
    layer: "bottom",
    what: "the environment, parsed once",
    may: ["lib/text"],
  },
  {
    unit: "lib/text",
    layer: "bottom",
    what: "pure parsing helpers, shared with the browser (ids and counts, bounded JSON, slugs, language codes, manifest rows, subject locations)",
    may: [],
  },
];

/** The browser's units: components/ imports these (and EVERYWHERE) only, directly or not. */
const BROWSER = [...SHARED, "lib/text"];

/** A unit's modules as a path pattern. */
function unitPath(unit) {
  if (unit === "lib/engine") return "^lib/engine/(?!(run|http)/)";
  if (unit.endsWith(".ts")) return `^${unit.replace(/\./g, "\\.")}$`;
  return `^${unit}/`;
}
/** Any module of the project's own (not node_modules, not Node's). */
const PROJECT = "^(lib|app|components|inngest|scripts|bench|test|e2e|prisma)/|^[^/]+\\.[cm]?[jt]sx?$";
const KNOWN = [...UNITS.map((u) => unitPath(u.unit)), ...EVERYWHERE];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle means two modules are one; move the shared piece to where both can use it.",
      from: {},
      to: { circular: true, dependencyTypesNot: ["type-only"] },
    },
    ...UNITS.filter((u) => u.unit !== "lib/generated").map(({ unit, layer, what, may }) => ({
      name: `layer-${unit.replace(/^lib\//, "").replace(/[/.]/g, "-")}`,
      severity: "error",
      comment: `${unit} (${layer}: ${what}) imports only ${may.length ? may.join(", ") : "nothing else in the project"}.`,
      from: { path: unitPath(unit) },
      to: { path: PROJECT, pathNot: [unitPath(unit), ...may.map(unitPath), ...EVERYWHERE] },
    })),
    {
      name: "lib-folder-has-a-layer",
      severity: "error",
      comment: "Every folder of lib/ is a unit of .dependency-cruiser.cjs's UNITS, with a layer and a list of what it may import.",
      from: { path: "^lib/", pathNot: KNOWN },
      to: {},
    },
    {
      name: "lib-import-has-a-layer",
      severity: "error",
      comment: "An import of a lib/ folder that has no unit in .dependency-cruiser.cjs's UNITS: give it a layer.",
      from: {},
      to: { path: "^lib/", pathNot: KNOWN },
    },
    {
      name: "errors-is-a-leaf",
      severity: "error",
      comment: "AppError (lib/errors.ts) is imported by every layer, the browser's too: it imports nothing of the project.",
      from: { path: EVERYWHERE },
      to: { path: PROJECT },
    },
    {
      name: "components-only-browser-code",
      severity: "error",
      comment:
        "Browser code reaches the data through the API client (components/ui/api-client.ts); of lib/ it imports only the units shared with the browser.",
      from: { path: "^components/" },
      to: { path: PROJECT, pathNot: ["^components/", ...BROWSER.map(unitPath), ...EVERYWHERE] },
    },
    {
      name: "browser-reaches-only-browser-code",
      severity: "error",
      comment:
        "Nothing components/ and the shared units import, directly or through other modules, is server code (the database, auth, transport, the domain).",
      from: { path: ["^components/", ...BROWSER.map(unitPath)] },
      to: { path: "^lib/", pathNot: [...BROWSER.map(unitPath), ...EVERYWHERE], reachable: true },
    },
    {
      name: "server-pages-render-markdown-off-thread",
      severity: "error",
      comment:
        "Pages show Markdown with components/ui/server-markdown.tsx, rendered on a worker thread: components/ui/markdown.tsx " +
        "renders on the thread that calls it, which on the server is the event loop every request waits on.",
      from: { path: "^app/" },
      to: { path: "^components/ui/markdown\\.tsx$" },
    },
    {
      name: "server-pages-render-markdown-off-thread",
      severity: "error",
      comment:
        "Pages show Markdown with components/ui/server-markdown.tsx, rendered on a worker thread: components/ui/markdown.tsx " +
        "renders on the thread that calls it, which on the server is the event loop every request waits on.",
      from: { path: "^app/" },
      to: { path: "^components/ui/markdown\\.tsx$" },
    },
    {
      name: "handlers-only-from-routes",
      severity: "error",
      comment: "lib/handlers holds route handlers: only app/ route files (and other handlers) bind them.",
      from: { pathNot: "^(app|lib/handlers)/" },
      to: { path: "^lib/handlers/" },
    },
  ],
  options: {
    // The generated Prisma client is not read (generated code), but imports of it are seen: the layer rules
    // hold for it as for lib/db.
    // components/ui/wire-types.ts is not followed either: it takes the browser's wire types from the
    // server's serializers by `import type` only (erased from the bundle; components/ui/wire-types.test.ts
    // holds it to type-only imports), so the browser reaches no server code through it.
    doNotFollow: { path: "(^|/)node_modules/|^lib/generated/|^components/ui/wire-types\\.ts$" },
    exclude: { path: "(^|/)(node_modules|\\.next)/|\\.(test|spec)\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
// The units as data for scripts/dependency-rules.test.ts; not enumerable, so dependency-cruiser's check of the
// configuration's keys does not see it.
Object.defineProperty(module.exports, "units", { value: UNITS, enumerable: false });
