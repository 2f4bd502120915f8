import { defineConfig } from "prisma/config";

// The CLI is used only for `prisma generate`; migrations are created and applied by scripts/ through the
// WebAssembly schema engine (see README), so no datasource URL is needed here.
export default defineConfig({
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
});
