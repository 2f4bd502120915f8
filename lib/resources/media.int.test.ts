import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as getFile, PUT as putFile } from "@/app/uploads/[...key]/route";
import { db } from "@/lib/db";
import { storage } from "@/lib/storage/storage";
import { shownInline } from "@/lib/handlers/file-routes";
import { api } from "@/test/http";
import { createProject, grantProjectRole, signedInUser } from "@/test/factories";
import { createOrganization } from "@/test/factories-organizations";

// Media under their record: avatar (one, replaced by the next), attached images (many), upload through the
// signed PUT URL a create answers, reads following the record's visibility, writes its update permission.

async function file(method: "GET" | "PUT", url: string, body?: Buffer, contentType?: string) {
  const u = new URL(url);
  const req = new Request(new URL(u.pathname + u.search, "http://quorum.test"), {
    method,
    body: body as BodyInit | undefined,
    headers: contentType ? { "content-type": contentType } : {},
  });
  const res = await (method === "GET" ? getFile : putFile)(req, {
    params: Promise.resolve({ key: u.pathname.replace(/^\/uploads\//, "").split("/") }),
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(64)]);
const ifMatch = (etag: string | null) => ({ headers: { "if-match": etag ?? undefined } });

describe("media: a project's avatar", () => {
  it("is created with a signed upload URL, served after the upload, replaced by the next, and deleted", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const path = `/projects/${project.id}/avatar`;

    // None yet: an empty list (as the established platform answers), not a 404.
    const none = await api.get(path);
    expect(none.status).toBe(200);
    expect(none.body.media).toEqual([]);
    const created = await api.post(path, { media: { content_type: "image/png", metadata: { alt: "logo" } } }, { token: owner.token });
    expect(created.status).toBe(201);
    const medium = created.body.media[0];
    expect(medium).toMatchObject({
      href: path,
      content_type: "image/png",
      media_type: "project_avatar",
      external_link: false,
      metadata: { alt: "logo" },
      links: { linked: { href: `/projects/${project.id}`, id: String(project.id), type: "projects" } },
    });
    expect(medium.src).toMatch(
      new RegExp(`/uploads/media/projects/${project.id}/[0-9a-f-]+\\.png\\?content_type=image%2Fpng&expires=\\d+&signature=`),
    );
    expect(created.body.links["media.linked"]).toBeDefined();

    const bytes = png();
    expect((await file("PUT", medium.src, bytes, "image/png")).status).toBe(200);
    const shown = await api.get(path);
    expect(shown.status).toBe(200);
    const served = shown.body.media[0].src as string;
    expect(served).toBe(medium.src.split("?")[0]);
    const got = await file("GET", served);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    // Shown in place, but sandboxed: nothing stored runs on our origin.
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("content-security-policy")).toMatch(/default-src 'none'.*sandbox/);
    expect(got.headers.get("content-disposition")).toBeNull();
    expect(got.bytes.equals(bytes)).toBe(true);
    expect((await api.get(path, { headers: { "if-none-match": shown.headers.get("etag")! } })).status).toBe(304);

    // A second avatar replaces the first (row and file).
    const second = await api.post(path, { media: { content_type: "image/jpeg" } }, { token: owner.token });
    expect(second.status).toBe(201);
    expect(await db().medium.count({ where: { linkedType: "projects", linkedId: project.id, type: "project_avatar" } })).toBe(1);
    expect(await storage().exists(new URL(served).pathname.replace(/^\/uploads\//, ""))).toBe(false);

    const metadata = await api.put(
      path,
      { media: { metadata: { alt: "new" } } },
      { token: owner.token, ...ifMatch((await api.get(path)).headers.get("etag")) },
    );
    expect(metadata.status).toBe(200);
    expect(metadata.body.media[0].metadata).toEqual({ alt: "new" });

    expect((await api.delete(path, { token: owner.token })).status).toBe(428);
    const etag = (await api.get(path)).headers.get("etag");
    expect((await api.delete(path, { token: owner.token, ...ifMatch(etag) })).status).toBe(204);
    expect((await api.get(path)).body.media).toEqual([]);
    // PUT and DELETE still need one to change.
    expect((await api.delete(path, { token: owner.token })).status).toBe(404);
  });

  it("takes an external link as it is, and refuses bad bodies without storing anything", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const path = `/projects/${project.id}/background`;
    const external = await api.post(
      path,
      { media: { content_type: "image/jpeg", external_link: true, src: "https://cdn.example.test/bg.jpg" } },
      { token: owner.token },
    );
    expect(external.status).toBe(201);
    expect(external.body.media[0]).toMatchObject({
      src: "https://cdn.example.test/bg.jpg",
      external_link: true,
      media_type: "project_background",
    });

    const before = await db().medium.count({ where: { linkedType: "projects", linkedId: project.id } });
    const cases: [string, unknown, number, RegExp][] = [
      ["no content type", { media: {} }, 422, /content_type/],
      ["a scriptable type", { media: { content_type: "image/svg+xml" } }, 422, /content_type must be one of/],
      ["html", { media: { content_type: "text/html" } }, 422, /content_type must be one of/],
      ["unknown key", { media: { content_type: "image/png", size: 3 } }, 422, /unknown key\(s\) 'size'/],
      ["src without external_link", { media: { content_type: "image/png", src: "x.png" } }, 422, /only given with external_link/],
      ["external_link without src", { media: { content_type: "image/png", external_link: true } }, 422, /src is required/],
      [
        "a javascript: link",
        { media: { content_type: "image/png", external_link: true, src: "javascript:alert(1)" } },
        422,
        /http\(s\) URL/,
      ],
      ["wrong envelope", { avatars: { content_type: "image/png" } }, 422, /expected 'media'/],
    ];
    for (const [name, body, status, message] of cases) {
      const res = await api.post(path, body, { token: owner.token });
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await db().medium.count({ where: { linkedType: "projects", linkedId: project.id } })).toBe(before);
    expect((await api.get(path)).body.media[0].src).toBe("https://cdn.example.test/bg.jpg");
  });
});

describe("media: who may", () => {
  it("follows the record: a private project's media are 404 to outsiders; writes need its update permission", async () => {
    const owner = await signedInUser();
    const collaborator = await signedInUser();
    const tester = await signedInUser();
    const stranger = await signedInUser();
    const admin = await signedInUser({ admin: true });
    const project = await createProject(owner.user.id, { private: true });
    await grantProjectRole(project.id, collaborator.user.id, ["collaborator"]);
    await grantProjectRole(project.id, tester.user.id, ["tester"]);
    const path = `/projects/${project.id}/attached_images`;
    const body = { media: { content_type: "image/png" } };

    const writes: [string, string | undefined, number][] = [
      ["anonymous", undefined, 401],
      ["stranger", stranger.token, 404],
      ["tester", tester.token, 403],
      ["collaborator", collaborator.token, 201],
      ["owner", owner.token, 201],
      ["admin", admin.token, 201],
    ];
    for (const [who, token, status] of writes) {
      const res = await api.post(path, body, { token });
      expect(res.status, who).toBe(status);
      if (status >= 400) expect(res.body.errors[0].message, who).toBeTruthy();
    }
    const reads: [string, string | undefined, number][] = [
      ["anonymous", undefined, 404],
      ["stranger", stranger.token, 404],
      ["tester", tester.token, 200],
      ["owner", owner.token, 200],
    ];
    for (const [who, token, status] of reads) {
      const res = await api.get(path, { token });
      expect(res.status, who).toBe(status);
      if (status === 404) expect(res.text, who).not.toContain("project_attached_image");
    }
    const list = await api.get(`${path}?page_size=2`, { token: tester.token });
    expect(list.body.media).toHaveLength(2);
    expect(list.body.meta.media).toMatchObject({ count: 3, page_size: 2, next_page: 2 });

    // One image by its id: shown, edited, deleted; the list path names none (405); another project's id is 404.
    const one = list.body.media[0];
    expect(one.href).toBe(`${path}/${one.id}`);
    const shown = await api.get(`${path}/${one.id}`, { token: tester.token });
    expect(shown.status).toBe(200);
    expect((await api.delete(path, { token: owner.token })).status).toBe(405);
    expect((await api.delete(`${path}/${one.id}`, { token: tester.token, ...ifMatch(shown.headers.get("etag")) })).status).toBe(403);
    const other = await createProject(owner.user.id);
    expect((await api.get(`/projects/${other.id}/attached_images/${one.id}`)).status).toBe(404);
    expect((await api.delete(`${path}/${one.id}`, { token: collaborator.token, ...ifMatch(shown.headers.get("etag")) })).status).toBe(204);
    expect((await api.get(`${path}/${one.id}`, { token: owner.token })).status).toBe(404);
  });

  it("a user's avatar and profile header are theirs (and admins') to change, anyone's to see", async () => {
    const user = await signedInUser();
    const other = await signedInUser();
    const path = `/users/${user.user.id}/avatar`;
    expect((await api.post(path, { media: { content_type: "image/png" } }, { token: other.token })).status).toBe(403);
    const created = await api.post(path, { media: { content_type: "image/png" } }, { token: user.token });
    expect(created.status).toBe(201);
    expect(created.body.media[0].media_type).toBe("user_avatar");
    expect((await api.get(path)).status).toBe(200);
    const header = await api.post(
      `/users/${user.user.id}/profile_header`,
      { media: { content_type: "image/webp" } },
      { token: user.token },
    );
    expect(header.status).toBe(201);
    expect(header.body.media[0]).toMatchObject({ media_type: "user_profile_header", href: `/users/${user.user.id}/profile_header` });
  });
});

describe("media: an organization's avatar and attached images", () => {
  it("shows as avatar_src and include=avatar; an unlisted organization's media are 404 to outsiders", async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const org = await createOrganization(owner.user.id, { listed: false });
    const path = `/organizations/${org.id}/avatar`;
    expect((await api.post(path, { media: { content_type: "image/png" } }, { token: stranger.token })).status).toBe(404);
    const created = await api.post(
      path,
      { media: { content_type: "image/png", external_link: true, src: "https://cdn.example.test/org.png" } },
      { token: owner.token },
    );
    expect(created.status).toBe(201);
    expect(created.body.media[0]).toMatchObject({ media_type: "organization_avatar", href: path });
    const shown = await api.get(`/organizations/${org.id}?include=avatar`, { token: owner.token });
    expect(shown.body.organizations[0].avatar_src).toBe("https://cdn.example.test/org.png");
    expect(shown.body.organizations[0].links.avatar).toMatchObject({ href: path, type: "avatars" });
    expect(shown.body.linked.avatars).toEqual([
      expect.objectContaining({ id: created.body.media[0].id, src: "https://cdn.example.test/org.png" }),
    ]);
    expect((await api.get(path, { token: stranger.token })).status).toBe(404);
    expect((await api.get(path)).status).toBe(404);

    const image = await api.post(
      `/organizations/${org.id}/attached_images`,
      { media: { content_type: "image/jpeg" } },
      { token: owner.token },
    );
    expect(image.status).toBe(201);
    expect(image.body.media[0]).toMatchObject({
      media_type: "organization_attached_image",
      href: `/organizations/${org.id}/attached_images/${image.body.media[0].id}`,
    });
    // Deleting the organization takes its media rows with it.
    const etag = (await api.get(`/organizations/${org.id}`, { token: owner.token })).headers.get("etag");
    expect((await api.delete(`/organizations/${org.id}`, { token: owner.token, ...ifMatch(etag) })).status).toBe(204);
    expect(await db().medium.count({ where: { linkedType: "organizations", linkedId: org.id } })).toBe(0);
  });
});

describe("media: includes on projects and users, and subjects' attached images", () => {
  it("include=avatar,background,owners on projects answers linked.avatars, linked.backgrounds and linked.owners", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const avatar = (
      await api.post(
        `/projects/${project.id}/avatar`,
        { media: { content_type: "image/png", src: "https://example.org/a.png", external_link: true } },
        { token: owner.token },
      )
    ).body.media[0];
    const background = (
      await api.post(
        `/projects/${project.id}/background`,
        { media: { content_type: "image/jpeg", src: "https://example.org/b.jpg", external_link: true } },
        { token: owner.token },
      )
    ).body.media[0];
    const res = await api.get(`/projects?id=${project.id}&include=avatar,background,owners`);
    expect(res.status).toBe(200);
    expect(res.body.projects[0].links).toMatchObject({
      avatar: { href: `/projects/${project.id}/avatar`, type: "avatars" },
      background: { href: `/projects/${project.id}/background`, type: "backgrounds" },
    });
    expect(res.body.linked.avatars.map((m: { id: string; src: string }) => [m.id, m.src])).toEqual([
      [avatar.id, "https://example.org/a.png"],
    ]);
    expect(res.body.linked.backgrounds.map((m: { id: string }) => m.id)).toEqual([background.id]);
    expect(res.body.linked.owners.map((u: { id: string }) => u.id)).toEqual([String(owner.user.id)]);
    expect(res.body.links["projects.avatar"]).toBeDefined();
    const user = await api.get(`/users/${owner.user.id}?include=avatar,profile_header`);
    expect(user.status).toBe(200);
    expect(user.body.linked).toMatchObject({ avatars: [], profile_headers: [] });
  });

  it("a subject's attached images: its project's editors add them (signed upload), anyone who sees the subject reads them", async () => {
    const owner = await signedInUser();
    const volunteer = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const subject = (
      await api.post(
        "/subjects",
        { subjects: { locations: [{ "image/png": "https://example.org/s.png" }], links: { project: String(project.id) } } },
        { token: owner.token },
      )
    ).body.subjects[0];
    const path = `/subjects/${subject.id}/attached_images`;
    expect((await api.post(path, { media: { content_type: "image/png" } }, { token: volunteer.token })).status).toBe(404);
    expect((await api.post(path, { media: { content_type: "text/html" } }, { token: owner.token })).status).toBe(422);
    const created = await api.post(path, { media: { content_type: "image/png", metadata: { caption: "detail" } } }, { token: owner.token });
    expect(created.status).toBe(201);
    const medium = created.body.media[0];
    expect(medium).toMatchObject({ media_type: "subject_attached_image", metadata: { caption: "detail" } });
    expect((await file("PUT", medium.src, png(), "image/png")).status).toBe(200);
    expect((await api.get(path, { token: owner.token })).body.media.map((m: { id: string }) => m.id)).toEqual([medium.id]);
    expect((await api.get(path, { token: volunteer.token })).status).toBe(404);
    const withImages = await api.get(`/subjects/${subject.id}?include=attached_images`, { token: owner.token });
    expect(withImages.body.linked.attached_images.map((m: { id: string }) => m.id)).toEqual([medium.id]);
    const one = `${path}/${medium.id}`;
    const etag = (await api.get(one, { token: owner.token })).headers.get("etag");
    expect((await api.delete(one, { token: owner.token, ...ifMatch(etag) })).status).toBe(204);
    expect(await db().medium.count({ where: { linkedType: "subjects", linkedId: Number(subject.id) } })).toBe(0);
    // Deleting the subject removes its media rows too.
    await api.post(
      path,
      { media: { content_type: "image/png", src: "https://example.org/x.png", external_link: true } },
      { token: owner.token },
    );
    const subjectEtag = (await api.get(`/subjects/${subject.id}`, { token: owner.token })).headers.get("etag");
    expect((await api.delete(`/subjects/${subject.id}`, { token: owner.token, ...ifMatch(subjectEtag) })).status).toBe(204);
    expect(await db().medium.count({ where: { linkedType: "subjects", linkedId: Number(subject.id) } })).toBe(0);
  });
});

describe("stored files", () => {
  it.each([
    ["image/png", true],
    ["image/svg+xml", true],
    ["video/mp4", true],
    ["audio/mpeg", true],
    ["text/plain; charset=utf-8", true],
    ["text/html", false],
    ["application/javascript", false],
    ["text/csv", false],
    ["application/pdf", false],
    ["application/octet-stream", false],
  ])("%s is shown in place: %s (anything else downloads as an attachment)", (type, inline) => {
    expect(shownInline(type)).toBe(inline);
  });
});
