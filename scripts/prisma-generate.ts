// postinstall: generates the Prisma client into lib/generated/prisma. The CLI wants a native schema
// engine it cannot download here and does not need for `generate`; point it at a placeholder file.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const placeholder = path.join(os.tmpdir(), "quorum-no-schema-engine");
  fs.writeFileSync(placeholder, "");
  env.PRISMA_SCHEMA_ENGINE_BINARY = placeholder;
}
const result = spawnSync(process.execPath, [path.resolve("node_modules/prisma/build/index.js"), "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
