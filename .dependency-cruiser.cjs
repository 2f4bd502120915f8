// The import rules CI holds the tree to (npm run lint:deps). Layers, from the outside in:
//   app/ (routes and pages) → components/ (browser) and lib/ (server)
//   inside lib/: http/resources → domain → policies/auth → db
// Today this enforces: no cycles anywhere, the browser side never imports the database, and nothing in
// lib/ imports app/ or components/. The remaining upward arrows inside lib/ (domain ↔ resources, domain →
// http) are listed in docs/architecture.md and are next to go; a rule for each lands with its move.
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
      comment: "lib/ is the server and shared logic: it never imports routes, pages or components.",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "components-not-db",
      severity: "error",
      comment: "Browser code reaches the data through the API client, never the database layer.",
      from: { path: "^components/" },
      to: { path: "^lib/(db|generated)(/|\\.ts$)" },
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
