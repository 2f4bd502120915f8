// The import rules CI holds the tree to (npm run lint:deps, in npm test after npm run lint). Layers, from the
// outside in (docs/architecture.md, "Layers and the import rules", draws them):
//   entry points: app/ (routes, pages), inngest/, scripts/, bench/, lib/jobs (the worker and its tasks)
//   transport:    lib/handlers (route handlers), lib/resources (ResourceDef per type), lib/http (the generic
//                 routes, request bodies, answers, CORS), lib/engine/http, lib/project-page
//   engine:       lib/engine/run (the decision engine's pipeline) over lib/engine (its pure core)
//   domain:       lib/domain (what happens), lib/counts (the classification counters)
//   below domain: lib/policies (who may), lib/auth (who is asking), lib/storage, lib/mail, lib/net
//   bottom:       lib/db (one folder), lib/env.ts, lib/log, lib/text (pure parsing helpers)
// Each layer imports only the layers below it. One arrow up is allowed everywhere: lib/http/api-error.ts,
// the domain's error type (ApiError), which lib/http/api-route.ts maps to an HTTP answer in one place.
// Also: no cycles anywhere, the browser side never imports the database, nothing in lib/ imports app/ or
// components/.
/** ApiError, allowed in every layer (see above). */
const API_ERROR = "^lib/http/api-error\\.ts$";
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
    {
      name: "lib-not-ui",
      severity: "error",
      comment: "lib/ is the server and shared logic: it never imports routes, pages, components or the Inngest functions.",
      from: { path: "^lib/" },
      to: { path: "^(app|components|inngest)/" },
    },
    {
      name: "components-not-db",
      severity: "error",
      comment: "Browser code reaches the data through the API client, never the database layer.",
      from: { path: "^components/" },
      to: { path: "^lib/(db|generated)(/|\\.ts$)" },
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
    {
      name: "jobs-is-an-entry-point",
      severity: "error",
      comment: "lib/jobs (the worker and its tasks) calls into lib/; nothing in lib/ calls it. The queue it reads is lib/db/job-queue.ts.",
      from: { path: "^lib/", pathNot: "^lib/jobs/" },
      to: { path: "^lib/jobs/" },
    },
    {
      name: "http-not-resources",
      severity: "error",
      comment:
        "lib/http is the generic transport the resources and handlers are built on: it takes a ResourceDef (lib/http/resource-def.ts) and never imports one.",
      from: { path: "^lib/http/" },
      to: { path: "^lib/(resources|handlers)/" },
    },
    {
      name: "domain-not-resources",
      severity: "error",
      comment:
        "lib/domain is below the resources and handlers that call it; what both need (types, pure helpers) lives in domain or below it.",
      from: { path: "^lib/domain/" },
      to: { path: "^lib/(resources|handlers)/" },
    },
    {
      name: "domain-not-transport",
      severity: "error",
      comment:
        "lib/domain knows no requests or answers: route handlers live in lib/handlers. " +
        "ApiError (lib/http/api-error.ts) is the domain's error, mapped to HTTP in one place.",
      from: { path: "^lib/domain/" },
      to: { path: "^lib/(http|engine/http|project-page)/", pathNot: API_ERROR },
    },
    {
      name: "domain-not-entry-points",
      severity: "error",
      comment: "The worker, its tasks and the engine's pipeline call the domain; the domain never calls them.",
      from: { path: "^lib/domain/" },
      to: { path: "^lib/(jobs|engine)/|^inngest/" },
    },
    {
      name: "engine-run-not-transport",
      severity: "error",
      comment: "The engine's pipeline and core run from jobs, never from a request: only lib/engine/http is transport.",
      from: { path: "^lib/engine/", pathNot: "^lib/engine/http/" },
      to: { path: "^lib/(http|handlers|resources|engine/http|project-page)/", pathNot: API_ERROR },
    },
    {
      name: "engine-core-is-pure",
      severity: "error",
      comment: "lib/engine outside run/ and http/ is the engine's pure core: no database, no domain, no transport.",
      from: { path: "^lib/engine/", pathNot: "^lib/engine/(run|http)/" },
      to: { path: "^lib/", pathNot: "^lib/engine/|^lib/text/" },
    },
    {
      name: "policies-not-resources",
      severity: "error",
      comment: "lib/policies decides who may, below the domain that asks it: it never imports the layers above it.",
      from: { path: "^lib/policies/" },
      to: { path: "^lib/(domain|counts|resources|handlers|http|engine|jobs|project-page|storage)/", pathNot: API_ERROR },
    },
    {
      name: "auth-not-domain",
      severity: "error",
      comment:
        "lib/auth (who is asking: tokens, sessions, sign-in and its rate limits) sits below the policies and the domain; " +
        "the client address it reads is lib/net/peer-address.ts.",
      from: { path: "^lib/auth/" },
      to: { path: "^lib/(domain|counts|policies|resources|handlers|http|engine|jobs|project-page|storage)/", pathNot: API_ERROR },
    },
    {
      name: "storage-below-domain",
      severity: "error",
      comment: "lib/storage (objects and signed URLs) serves the domain and the handlers; it imports neither.",
      from: { path: "^lib/storage/" },
      to: { path: "^lib/(domain|counts|policies|resources|handlers|http|engine|jobs|project-page)/", pathNot: API_ERROR },
    },
    {
      name: "db-is-bottom",
      severity: "error",
      comment: "lib/db (Prisma, the pg pools, SQL helpers, the job queue) imports nothing above it: only the environment and the log.",
      from: { path: "^lib/db/" },
      to: { path: "^(lib|inngest)/", pathNot: "^lib/(db|generated|log)/|^lib/env\\.ts$" },
    },
    {
      name: "helpers-are-bottom",
      severity: "error",
      comment: "lib/text, lib/log and lib/env.ts are leaves every layer may use: they import only each other (and ApiError).",
      from: { path: "^lib/(text|log)/|^lib/env\\.ts$" },
      to: { path: "^(lib|inngest)/", pathNot: `^lib/(text|log)/|^lib/env\\.ts$|${API_ERROR}` },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next|lib/generated)/|\\.(test|spec)\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
