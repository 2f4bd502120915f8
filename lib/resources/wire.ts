// Small serialisation helpers shared by resource definitions: ids are strings on the wire, times ISO UTC.
export const idStr = (id: number | null | undefined): string | null => (id === null || id === undefined ? null : String(id));
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export function userLink(user: { id: number; displayName: string }) {
  return { id: String(user.id), display_name: user.displayName, type: "users", href: `/users/${user.id}` };
}
