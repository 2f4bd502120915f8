import type { Metadata } from "next";
import { headers } from "next/headers";
import { cache } from "react";
import { resolveActor } from "@/lib/auth/actor";
import { visibleOrganizationName, visibleProjectName } from "@/lib/pages/titles";
import { isIdString } from "@/lib/text/params";

// Every page's own title (the root layout adds " · Quorum"): a section, and the name of the record it shows
// when the visitor may see it. Read once per request however many titles ask (React's cache).

const visitor = cache(async () => {
  const h = await headers();
  return resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
});

const projectName = cache(async (id: string) => (isIdString(id) ? visibleProjectName(Number(id), await visitor()) : null));
const organizationName = cache(async (id: string) => (isIdString(id) ? visibleOrganizationName(Number(id), await visitor()) : null));

type IdParams = { params: Promise<{ id: string }> };

/** "<section> · <project>" (or the project's name alone). */
export function projectTitle(section?: string) {
  return async ({ params }: IdParams): Promise<Metadata> => {
    const name = await projectName((await params).id);
    return { title: [section, name].filter(Boolean).join(" · ") || "Project" };
  };
}

/** "<section> · <project> · Lab". */
export function labTitle(section: string) {
  return async ({ params }: IdParams): Promise<Metadata> => {
    const name = await projectName((await params).id);
    return { title: [section, name, "Lab"].filter(Boolean).join(" · ") };
  };
}

export async function organizationTitle({ params }: IdParams): Promise<Metadata> {
  return { title: (await organizationName((await params).id)) ?? "Organisation" };
}
