import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { User } from "@/lib/generated/prisma/client";
import { call, type CallOptions, type CallResult } from "@/test/http";
import { createProject, createUser, tokenFor, uid } from "@/test/factories";

// The authorization matrix: every endpoint × method × actor, with the status (and body rules) each actor
// must get. A row names one request; the runner sends it once per actor and checks, for every answer:
//   - the status the row expects for that actor (a failure names the endpoint, the method and the actor);
//   - an error answer has the body {"errors":[{"message":"..."}]};
//   - no secret reaches an actor it is not meant for (names of private records, other users' emails and
//     private profile fields), and users other than oneself are serialized with public fields only;
//   - a refused write changed nothing (the row's `unchanged` read back before and after);
//   - a 404 says nothing a request for a record that does not exist would not say (`missing`);
//   - list rows show each record to exactly the actors that may see it (`listed`).
// Rows for a new resource are a few table entries: see lib/policies/authorization-matrix.int.test.ts.

/** Project roles as the API assigns them (the test states them itself rather than reading the policy). */
export const ROLE_ACTORS = ["collaborator", "tester", "scientist", "moderator", "translator", "expert"] as const;
export const ACTORS = ["anonymous", "stranger", ...ROLE_ACTORS, "owner", "admin"] as const;
export type ActorName = (typeof ACTORS)[number];
export type CastName = Exclude<ActorName, "anonymous">;
export type Expected = Record<ActorName, number>;

/** Who may see a private project: any project role, its owner, admins. */
export const VIEWERS: readonly ActorName[] = [...ROLE_ACTORS, "owner", "admin"];
/** Who may edit a project and what belongs to it. */
export const EDITORS: readonly ActorName[] = ["collaborator", "owner", "admin"];
/** Project roles that see a private project but may not edit it. */
export const READ_ONLY_ROLES: readonly ActorName[] = ["tester", "scientist", "moderator", "translator", "expert"];

// ---------------------------------------------------------------------------------------------------------
// Expected statuses

/** `base` for every actor, with overrides. */
export function statuses(base: number, overrides: Partial<Expected> = {}): Expected {
  return { ...(Object.fromEntries(ACTORS.map((a) => [a, base])) as Expected), ...overrides };
}
/** `ok` for the listed actors, `others` for everyone else. */
export function only(who: readonly ActorName[], ok: number, others: number, overrides: Partial<Expected> = {}): Expected {
  return { ...(Object.fromEntries(ACTORS.map((a) => [a, who.includes(a) ? ok : others])) as Expected), ...overrides };
}
/** A public record: everyone reads it. */
export const readPublic = (ok = 200) => statuses(ok);
/** A private record: 404 to those without a role. */
export const readPrivate = (ok = 200) => statuses(ok, { anonymous: 404, stranger: 404 });
/** A write on a public record: 401 anonymous, 403 without an edit role, `ok` for editors. */
export const writePublic = (ok: number) => only(EDITORS, ok, 403, { anonymous: 401 });
/** A write on a private record: as on a public one, but 404 to those who cannot see it. */
export const writePrivate = (ok: number) => only(EDITORS, ok, 403, { anonymous: 401, stranger: 404 });
/** Any signed-in user: `ok`; anonymous: 401. */
export const signedIn = (ok: number) => statuses(ok, { anonymous: 401 });

export type Visibility = "public" | "private";
export const read = (vis: Visibility, ok = 200) => (vis === "public" ? readPublic(ok) : readPrivate(ok));
export const write = (vis: Visibility, ok: number) => (vis === "public" ? writePublic(ok) : writePrivate(ok));

// ---------------------------------------------------------------------------------------------------------
// The cast: one user per actor (anonymous has none), each with a bearer token

export type TestUser = User & { password: string };
export interface CastMember {
  user: TestUser;
  token: string;
}
/** A string that must reach only the actors in `visibleTo` (never anyone else, in any answer). */
export interface Secret {
  label: string;
  text: string;
  visibleTo: readonly ActorName[];
}
export interface Cast {
  members: Record<CastName, CastMember>;
  /** The actor's bearer token (undefined for anonymous). */
  token(actor: ActorName): string | undefined;
  /** The actor's user (null for anonymous). */
  user(actor: ActorName): TestUser | null;
  /** Each member's email and a marker in its private `languages`: for that member and admins only. */
  secrets: Secret[];
}

/** Creates the users of the matrix. Project roles are given per project by castProject/grantCastRoles. */
export async function createCast(): Promise<Cast> {
  const names = ACTORS.filter((a): a is CastName => a !== "anonymous");
  const members = {} as Record<CastName, CastMember>;
  const secrets: Secret[] = [];
  await Promise.all(
    names.map(async (name) => {
      const created = await createUser({ admin: name === "admin", login: `mx_${name}_${uid()}` });
      const marker = `l${uid()}`;
      const user = {
        ...(await db().user.update({ where: { id: created.id }, data: { languages: [marker] } })),
        password: created.password,
      };
      members[name] = { user, token: await tokenFor(user) };
      const visibleTo: ActorName[] = [name, "admin"];
      secrets.push({ label: `${name}'s email`, text: user.email, visibleTo }, { label: `${name}'s languages`, text: marker, visibleTo });
    }),
  );
  return {
    members,
    token: (a) => (a === "anonymous" ? undefined : members[a].token),
    user: (a) => (a === "anonymous" ? null : members[a].user),
    secrets,
  };
}

/** Gives each role actor its role on the project (the owner's role comes with the project). */
export async function grantCastRoles(cast: Cast, projectId: number): Promise<void> {
  await db().projectRole.createMany({ data: ROLE_ACTORS.map((r) => ({ projectId, userId: cast.members[r].user.id, roles: [r] })) });
}

/** A project owned by the cast's owner on which every role actor holds its role. */
export async function castProject(cast: Cast, opts: { private?: boolean; displayName?: string } = {}) {
  const project = await createProject(cast.members.owner.user.id, {
    private: opts.private,
    displayName: opts.displayName ?? `Matrix ${uid()}`,
  });
  await grantCastRoles(cast, project.id);
  return project;
}

// ---------------------------------------------------------------------------------------------------------
// Rows and the runner

export interface MatrixWorld {
  cast: Cast;
  /** Strings of private records, each with the actors that may see it. */
  secrets: Secret[];
}

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface MatrixRow<W extends MatrixWorld, F = unknown> {
  /** What the row requests, e.g. "/api/workflows/:id (private project)". The method is prefixed. */
  name: string;
  method: Method;
  expect: Expected;
  /** A fresh record (or anything) per actor, made before the request: writes never depend on each other. */
  fresh?: (w: W, actor: ActorName) => Promise<F>;
  /** The full path, /api included. */
  path: (w: W, f: F, actor: ActorName) => string;
  body?: (w: W, f: F, actor: ActorName) => unknown;
  /** Other request options (raw body, content type, headers); `token` overrides the actor's own. */
  options?: (w: W, f: F, actor: ActorName) => CallOptions;
  /** Replaces the request altogether (flows of several requests, such as a browser sign-in). */
  send?: (w: W, f: F, actor: ActorName) => Promise<CallResult>;
  /** PUT and DELETE under /api send `If-Match: *` unless this is false. */
  ifMatch?: boolean;
  /** A read-back of what the request would change: equal before and after when the request is refused. */
  unchanged?: (w: W, f: F, actor: ActorName) => Promise<unknown>;
  /**
   * The same request about a record that does not exist. Actors answered 404 (and those listed in
   * `indistinguishableFor`) must get the same status and message from it: a hidden record is never revealed.
   */
  missing?: (w: W, f: F, actor: ActorName) => { path?: string; body?: unknown };
  indistinguishableFor?: readonly ActorName[];
  /** On a 200 list: each record is listed (under `key`) exactly for the actors in its `visibleTo`. */
  listed?: { key: string; records: (w: W) => { label: string; id: number; visibleTo: readonly ActorName[] }[] };
  /** A user whose own record the answer is (a registration): their private fields are not a leak. */
  ownUser?: (res: CallResult, w: W, f: F, actor: ActorName) => number | undefined;
  /** Further checks of any answer. */
  check?: (res: CallResult, w: W, f: F, actor: ActorName) => void | Promise<void>;
}

/** Fields of a user anyone may see; the rest are for the user themself and admins. */
export const PUBLIC_USER_FIELDS = new Set([
  "id",
  "login",
  "display_name",
  "credited_name",
  "created_at",
  "updated_at",
  "type",
  "href",
  "avatar_src",
  "links",
]);

/** A nonexistent id for `missing` requests. */
export const MISSING_ID = 2_000_000_000;

async function sendRow<W extends MatrixWorld, F>(
  w: W,
  row: MatrixRow<W, F>,
  f: F,
  actor: ActorName,
  variant?: { path?: string; body?: unknown },
): Promise<CallResult> {
  if (row.send && !variant) return row.send(w, f, actor);
  const path = variant?.path ?? row.path(w, f, actor);
  const opts: CallOptions = { token: w.cast.token(actor), ...row.options?.(w, f, actor) };
  const body = variant?.body ?? row.body?.(w, f, actor);
  if (body !== undefined) opts.body = body;
  if ((row.method === "PUT" || row.method === "DELETE") && row.ifMatch !== false && path.startsWith("/api/"))
    opts.headers = { "if-match": "*", ...opts.headers };
  if (!path.startsWith("/api/") && opts.accept === undefined) opts.accept = "application/json";
  return call(row.method, path, opts);
}

const errorMessage = (res: CallResult): string | undefined =>
  (res.body as { errors?: { message?: string }[] } | null)?.errors?.[0]?.message;
/** Ids differ between a hidden record and a missing one; nothing else may. */
const normalized = (message: string | undefined) => message?.replace(/\d+/g, "#");

function walk(value: unknown, visit: (o: Record<string, unknown>) => void) {
  if (Array.isArray(value)) for (const v of value) walk(v, visit);
  else if (value && typeof value === "object") {
    visit(value as Record<string, unknown>);
    for (const v of Object.values(value)) walk(v, visit);
  }
}

/** Checks every answer: no secret for others, other users' records with public fields only. */
function expectNoLeaks(w: MatrixWorld, actor: ActorName, res: CallResult, where: string, ownUser?: number) {
  const text = `${res.text}\n${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}`;
  for (const s of [...w.cast.secrets, ...w.secrets]) {
    if (!s.visibleTo.includes(actor)) expect(text.includes(s.text), `${where}: the answer reveals ${s.label} (${s.text})`).toBe(false);
  }
  if (actor === "admin") return;
  const self = w.cast.user(actor)?.id;
  walk(res.body, (o) => {
    if (o.type !== "users" || typeof o.id !== "string" || Number(o.id) === self || Number(o.id) === ownUser) return;
    const extra = Object.keys(o).filter((k) => !PUBLIC_USER_FIELDS.has(k));
    expect(extra, `${where}: user ${o.id} is serialized with private fields`).toEqual([]);
  });
}

function expectBodyShape(res: CallResult, path: string, where: string) {
  if (res.status >= 400) {
    const errors = (res.body as { errors?: unknown } | null)?.errors;
    expect(
      Array.isArray(errors) && errors.length > 0,
      `${where}: an error answer needs {"errors":[{"message"}]}, got ${res.text.slice(0, 200)}`,
    ).toBe(true);
    expect(typeof errorMessage(res), `${where}: errors[0].message`).toBe("string");
    if (path.startsWith("/api/")) expect(Object.keys(res.body as object), `${where}: error body keys`).toEqual(["errors"]);
  } else if (path.startsWith("/api/") && res.body && typeof res.body === "object" && (res.status === 200 || res.status === 201)) {
    const keys = Object.keys(res.body).filter((k) => !["links", "meta", "linked"].includes(k));
    expect(keys.length, `${where}: a JSON-API answer has one resource key (got ${keys.join(", ")})`).toBe(1);
    expect(Array.isArray((res.body as Record<string, unknown>)[keys[0]]), `${where}: the resource key holds an array`).toBe(true);
  }
}

/** One case: a row sent as one actor, with every check. */
export async function runMatrixCase<W extends MatrixWorld, F>(w: W, row: MatrixRow<W, F>, actor: ActorName): Promise<void> {
  const where = `${row.method} ${row.name} as ${actor}`;
  const f = (row.fresh ? await row.fresh(w, actor) : undefined) as F;
  const before = row.unchanged ? await row.unchanged(w, f, actor) : undefined;
  const res = await sendRow(w, row, f, actor);
  const want = row.expect[actor];
  expect(res.status, `${where}: expected ${want}, got ${res.status} ${res.text.slice(0, 300)}`).toBe(want);
  const path = row.path(w, f, actor);
  expectBodyShape(res, path, where);
  expectNoLeaks(w, actor, res, where, row.ownUser?.(res, w, f, actor));
  if (row.unchanged && res.status >= 400)
    expect(await row.unchanged(w, f, actor), `${where}: a refused request changed something`).toEqual(before);
  if (row.missing && (want === 404 || row.indistinguishableFor?.includes(actor))) {
    const alt = await sendRow(w, row, f, actor, row.missing(w, f, actor));
    expect(alt.status, `${where}: a hidden record must answer as a missing one does (${alt.text.slice(0, 200)})`).toBe(res.status);
    expect(normalized(errorMessage(res)), `${where}: a hidden record must answer as a missing one does`).toBe(
      normalized(errorMessage(alt)),
    );
  }
  if (row.listed && res.status === 200) {
    const listed = new Set(((res.body as Record<string, { id: string }[]>)[row.listed.key] ?? []).map((r) => Number(r.id)));
    for (const rec of row.listed.records(w)) {
      const should = rec.visibleTo.includes(actor);
      expect(listed.has(rec.id), `${where}: ${rec.label} (${rec.id}) should ${should ? "" : "not "}be listed`).toBe(should);
    }
  }
  await row.check?.(res, w, f, actor);
}

/**
 * Registers the matrix: `setup` runs once (beforeAll), then one test per row and actor, named
 * "<METHOD> <row name> › as <actor> → <status>", run concurrently.
 */
export function authorizationMatrix<W extends MatrixWorld>(title: string, setup: () => Promise<W>, rows: MatrixRow<W, any>[]) {
  const names = new Set<string>();
  for (const row of rows) {
    const name = `${row.method} ${row.name}`;
    if (names.has(name)) throw new Error(`authorization matrix: two rows named '${name}'`);
    names.add(name);
  }
  let world: W;
  describe(title, () => {
    beforeAll(async () => {
      world = await setup();
    }, 120_000);
    for (const row of rows) {
      describe.concurrent(`${row.method} ${row.name}`, () => {
        for (const actor of ACTORS) it(`as ${actor} → ${row.expect[actor]}`, () => runMatrixCase(world, row, actor));
      });
    }
  });
}
