// Small serialisation helpers shared by resource definitions: ids are strings on the wire, times ISO UTC.
export const idStr = (id: number | null | undefined): string | null => (id === null || id === undefined ? null : String(id));

/** A time as ISO UTC: a string for a time that is always set, a string or null for one that may not be. */
export function iso(d: Date): string;
export function iso(d: Date | null | undefined): string | null;
export function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

export function userLink(user: { id: number; displayName: string }) {
  return { id: String(user.id), display_name: user.displayName, type: "users", href: `/users/${user.id}` };
}
