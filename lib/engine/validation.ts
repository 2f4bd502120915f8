import { z } from "zod";

// Shared pieces of the engine's config validation: keys, HTTPS URLs, enum messages, and turning zod issues
// into one message that names the offending path (`reducers_config.c.filters.to: ...`, `rules_config[0].if: ...`).

export const KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const ZKey = z.string().regex(KEY_PATTERN, "keys are 1-64 letters, digits, '_' or '-'");

/** `"<extractor_key>.<field>"`: the field may itself be dotted (nested). */
export const FIELD_REF_PATTERN = /^[A-Za-z0-9_-]{1,64}\.[^\s]{1,200}$/;
export const ZFieldRef = z.string().regex(FIELD_REF_PATTERN, "must be '<extractor_key>.<field>'");

export function isHttpsUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === "https:" && u.hostname !== "";
  } catch {
    return false;
  }
}
export const ZHttpsUrl = z.string().max(2000).refine(isHttpsUrl, "must be an https: URL");

/** A zod enum whose message lists the allowed values, as the config API reports them. */
export function zEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(", ")}` });
}

const ID_MESSAGE = "must be an id (a positive integer or a string of digits)";
/**
 * A positive integer id, given as a number or a string of digits, normalised to a string of digits. Ids
 * are PostgreSQL integers: a larger one saved fine and then failed every action that used it.
 */
export const ZIdString = z
  .union(
    [
      z
        .number()
        .int(ID_MESSAGE)
        .positive(ID_MESSAGE)
        .max(2 ** 31 - 1, ID_MESSAGE),
      z.string().regex(/^\s*0*[1-9]\d{0,18}\s*$/, ID_MESSAGE),
    ],
    { error: ID_MESSAGE },
  )
  .transform((v) =>
    String(v)
      .trim()
      .replace(/^0+(?=\d)/, ""),
  )
  .refine((id) => id.length <= 10 && Number(id) <= 2 ** 31 - 1, ID_MESSAGE);

export type IssuePath = readonly PropertyKey[];

/** `["rules_config", 0, "if", 1]` → `rules_config[0].if[1]`. */
export function formatPath(path: IssuePath): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

export function formatIssues(issues: readonly z.core.$ZodIssue[], root = "workflow"): string {
  return issues
    .map((i) => {
      const where = i.path.length ? formatPath(i.path) : root;
      if (i.code === "unrecognized_keys") return `${where}: unknown key(s) ${i.keys.map((k) => `'${k}'`).join(", ")}`;
      if (i.code === "invalid_key") return `${where}: ${i.issues.map((inner) => inner.message).join(", ") || i.message}`;
      return `${where}: ${i.message}`;
    })
    .join("; ");
}

/**
 * A schema that reads the discriminator `field` (`type`, `action`) and validates the whole object with that
 * value's schema, keeping issue paths relative. An unknown value is one error on the discriminator.
 */
export function dispatchOn<S extends Record<string, z.ZodType>>(field: string, what: string, schemas: S) {
  const names = Object.keys(schemas);
  return z.looseObject({ [field]: z.string({ error: `required; one of ${names.join(", ")}` }) }).transform((value, ctx) => {
    const name = value[field] as string;
    const schema = Object.hasOwn(schemas, name) ? schemas[name] : undefined;
    if (!schema) {
      ctx.addIssue({ code: "custom", path: [field], message: `unknown ${what} '${name}' (expected one of ${names.join(", ")})` });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
      return z.NEVER;
    }
    return parsed.data as z.output<S[keyof S]>;
  });
}
