import { parseArgs, type ParseArgsConfig } from "node:util";

// A command line's arguments (node:util's parseArgs, with --help) against its usage text: a bad argument
// prints the problem and the usage and exits 2; --help prints the usage and exits 0.

export function cliArgs(usage: string, options: NonNullable<ParseArgsConfig["options"]>) {
  const fail = (message?: string): never => {
    if (message) console.error(`${message}\n`);
    console.error(usage);
    process.exit(message ? 2 : 0);
  };
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ options: { ...options, help: { type: "boolean", short: "h" } }, allowPositionals: true });
  } catch (err) {
    return fail((err as Error).message);
  }
  if (parsed.values.help) fail();
  return { values: parsed.values, positionals: parsed.positionals, fail };
}
