import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { resolveActor } from "@/lib/auth/actor";

/** Who is reading this page (by the request's session cookie), read once per request however many ask (React's cache). */
export const pageVisitor = cache(async () => {
  const h = await headers();
  return resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
});

/**
 * The visitor of a page only for signed-in users: one whose session is gone (the proxy let the cookie
 * through, but it names no live session) goes to sign in, and back to `path` after.
 */
export async function signedInVisitor(path: string) {
  const actor = await pageVisitor();
  if (!actor.user) redirect(`/sign-in?return_to=${encodeURIComponent(path)}`);
  return { ...actor, user: actor.user };
}
