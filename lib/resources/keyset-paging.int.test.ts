// Lists walked to their end by id, as the established platform's last_id paging and the Python client's
// walk (Classification.where(scope='project', project_id=...) follows next_href): next_href carries the
// page's last id, never a page number over the same last_id, so no page pays for an offset.
import { describe, expect, it } from "vitest";
import { call } from "@/test/http";
import { classifiableProject, classificationBody, signedInUser } from "@/test/factories";
import { api } from "@/test/http";

const JSONAPI = "application/vnd.api+json; version=1";

async function walk(first: string, token: string, key: string) {
  const seen: string[] = [];
  const hrefs: string[] = [];
  let href: string | null = first;
  while (href) {
    const res: { status: number; body: Record<string, { id: string }[]> & { meta: Record<string, { next_href: string | null }> } } = await call("GET", `/api${href}`, { token, accept: JSONAPI });
    expect(res.status, href).toBe(200);
    seen.push(...res.body[key].map((r) => r.id));
    href = res.body.meta[key].next_href;
    if (href) hrefs.push(href);
  }
  return { seen, hrefs };
}

describe("keyset paging", () => {
  it("a project's classifications: last_id answers those after it in id order; next_href carries the page's last id, previous_href the one asked after", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(7);
    const v = await signedInUser();
    for (const s of subjects) await api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token });
    const { seen, hrefs } = await walk(`/classifications/project?project_id=${project.id}&page_size=3`, owner.token, "classifications");
    expect(seen).toHaveLength(7);
    expect([...seen].sort((a, b) => Number(a) - Number(b))).toEqual(seen);
    expect(hrefs).toHaveLength(2);
    for (const h of hrefs) {
      expect(h).toMatch(/last_id=\d+/);
      expect(h).not.toMatch(/[?&]page=/);
    }
    const after = seen[2];
    const page = await call("GET", `/api/classifications/project?project_id=${project.id}&last_id=${after}&page_size=3`, { token: owner.token, accept: JSONAPI });
    expect(page.body.classifications.map((c: { id: string }) => c.id)).toEqual(seen.slice(3, 6));
    const meta = page.body.meta.classifications;
    expect(new URL(meta.next_href, "http://x").searchParams.get("last_id")).toBe(seen[5]);
    expect(new URL(meta.previous_href, "http://x").searchParams.get("last_id")).toBe(after);
    // last_id without project_id is refused, as there.
    expect((await call("GET", `/api/classifications/project?last_id=${after}`, { token: owner.token, accept: JSONAPI })).status).toBe(422);
  });

  it("subjects and set member subjects walk the same way; a list sorted otherwise pages by number", async () => {
    const { owner, project, set } = await classifiableProject(5);
    const subjects = await walk(`/subjects?project_id=${project.id}&page_size=2`, owner.token, "subjects");
    expect(subjects.seen).toHaveLength(5);
    expect(subjects.hrefs.every((h) => /last_id=/.test(h) && !/[?&]page=/.test(h))).toBe(true);
    const members = await walk(`/set_member_subjects?subject_set_id=${set.id}&page_size=2`, owner.token, "set_member_subjects");
    expect(members.seen).toHaveLength(5);
    expect(members.hrefs.every((h) => /last_id=/.test(h))).toBe(true);
    const byNewest = await walk(`/subjects?project_id=${project.id}&page_size=2&sort=-id`, owner.token, "subjects");
    expect(byNewest.seen).toEqual([...subjects.seen].reverse());
    expect(byNewest.hrefs.every((h) => /[?&]page=\d/.test(h))).toBe(true);
  });
});
