import type { Metadata } from "next";
import { cache } from "react";
import { profileName, visibleCollectionName, visibleOrganizationName, visibleProjectName } from "@/lib/pages/titles";
import { decodedSegment, isIdString } from "@/lib/text/params";
import { pageVisitor as visitor } from "./visitor";

// Every page's own title (the root layout adds " · Quorum"): a section, and the name of the record it shows
// when the visitor may see it. Read once per request however many titles ask (React's cache).

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

export async function collectionTitle({ params }: IdParams): Promise<Metadata> {
  const { id } = await params;
  const name = isIdString(id) ? await visibleCollectionName(Number(id), await visitor()) : null;
  return { title: name ? `${name} · Collections` : "Collection" };
}

export async function profileTitle({ params }: { params: Promise<{ login: string }> }): Promise<Metadata> {
  const login = decodedSegment((await params).login);
  const name = login === null ? null : await profileName(login);
  return { title: name ? `${name} · Profile` : "Profile" };
}
