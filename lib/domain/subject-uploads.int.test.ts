import crypto from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { GET, PUT } from "@/app/uploads/[...key]/route";
import { db } from "@/lib/db";
import { signedUrl } from "@/lib/storage/signed-urls";
import { storage } from "@/lib/storage/storage";
import { api } from "@/test/http";
import { createProject, signedInUser } from "@/test/factories";
import { storageBackends, useStorageBackend } from "@/test/storage-backends";

// The upload round trip: create a subject naming a mime type, PUT the file to the signed URL it answers
// (no bearer, no JSON-API headers), GET it back at the subject's location. Over every storage
// implementation (local disk, S3 via s3rver): the URLs and answers are the same.

async function file(
  method: "GET" | "PUT",
  url: string,
  opts: { body?: Uint8Array | ReadableStream; headers?: Record<string, string> } = {},
) {
  const u = new URL(url);
  const req = new Request(new URL(u.pathname + u.search, "http://quorum.test"), {
    method,
    headers: opts.headers,
    body: opts.body as BodyInit | undefined,
    ...(opts.body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const key = u.pathname.replace(/^\/uploads\//, "").split("/");
  const res = await (method === "GET" ? GET : PUT)(req, { params: Promise.resolve({ key }) });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const png = (n: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(n)]);

afterEach(() => {
  delete process.env.UPLOAD_MAX_BYTES;
});

describe.each(storageBackends)("subject uploads ($name)", (backend) => {
  useStorageBackend(backend);

  it("answers upload URLs for mime-only locations; the PUT file is served at the subject's location", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const created = await api.post(
      "/subjects",
      {
        subjects: {
          locations: ["image/png", { "image/jpeg": "https://example.test/a.jpg" }],
          metadata: { n: 1 },
          links: { project: String(project.id) },
        },
      },
      { token: owner.token },
    );
    expect(created.status).toBe(201);
    const subject = created.body.subjects[0];
    const uploadUrl: string = subject.locations[0]["image/png"];
    expect(uploadUrl).toMatch(
      new RegExp(
        `^http://localhost:3000/uploads/subjects/${subject.id}/[0-9a-f-]+\\.png\\?content_type=image%2Fpng&expires=\\d+&signature=`,
      ),
    );
    expect(subject.locations[1]).toEqual({ "image/jpeg": "https://example.test/a.jpg" });

    // Before and after the upload, reads show the served URL.
    const publicUrl = uploadUrl.split("?")[0];
    expect((await api.get(`/subjects/${subject.id}`)).body.subjects[0].locations[0]).toEqual({ "image/png": publicUrl });
    expect((await file("GET", publicUrl)).status).toBe(404);

    const bytes = png(5000);
    const put = await file("PUT", uploadUrl, { body: bytes, headers: { "content-type": "image/png" } });
    expect(put.status).toBe(200);
    const got = await file("GET", publicUrl);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(bytes)).toBe(true);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("content-length")).toBe(String(bytes.length));
    expect(got.headers.get("cache-control")).toMatch(/public/);
    const etag = got.headers.get("etag")!;
    expect(etag).toBe(`"${crypto.createHash("md5").update(bytes).digest("hex")}"`);
    expect((await file("GET", publicUrl, { headers: { "if-none-match": etag } })).status).toBe(304);

    // Once uploaded, the answer to an edit shows the served URL, not a new upload URL.
    const tag = (await api.get(`/subjects/${subject.id}`)).headers.get("etag")!;
    const edited = await api.put(
      `/subjects/${subject.id}`,
      { subjects: { metadata: { n: 2 } } },
      { token: owner.token, headers: { "if-match": tag } },
    );
    expect(edited.body.subjects[0].locations[0]).toEqual({ "image/png": publicUrl });
  });

  it("refuses bad, tampered, expired, mistyped and oversize uploads, storing nothing", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const created = await api.post(
      "/subjects",
      { subjects: { locations: ["image/png", "video/mp4"], links: { project: String(project.id) } } },
      { token: owner.token },
    );
    const [pngUrl, mp4Url] = [
      created.body.subjects[0].locations[0]["image/png"] as string,
      created.body.subjects[0].locations[1]["video/mp4"] as string,
    ];
    expect(mp4Url).toMatch(/\.mp4\?/);
    const key = new URL(pngUrl).pathname.replace("/uploads/", "");
    const body = png(100);
    const ok = { "content-type": "image/png" };
    const tampered = pngUrl.replace(/signature=(.)/, (_m, c) => `signature=${c === "A" ? "B" : "A"}`);
    const otherKey = pngUrl.replace(/\/[0-9a-f-]+\.png/, "/00000000-0000-0000-0000-000000000000.png");
    const expired = await signedUrl("PUT", key, { contentType: "image/png", ttlSeconds: -10 });
    const cases: [string, Promise<{ status: number; bytes: Buffer }>, number][] = [
      ["no signature", file("PUT", pngUrl.split("?")[0], { body, headers: ok }), 403],
      ["tampered signature", file("PUT", tampered, { body, headers: ok }), 403],
      ["signature of another file", file("PUT", otherKey, { body, headers: ok }), 403],
      [
        "content type changed in the URL",
        file("PUT", pngUrl.replace("image%2Fpng", "image%2Fgif"), { body, headers: { "content-type": "image/gif" } }),
        403,
      ],
      ["expired", file("PUT", expired, { body, headers: ok }), 403],
      ["wrong content type", file("PUT", pngUrl, { body, headers: { "content-type": "image/gif" } }), 415],
      ["declared too large", file("PUT", pngUrl, { body, headers: { ...ok, "content-length": String(30 * 1024 * 1024) } }), 413],
    ];
    for (const [name, p, status] of cases) {
      const res = await p;
      expect(res.status, name).toBe(status);
      expect(JSON.parse(res.bytes.toString()).errors[0].message, name).toBeTruthy();
    }
    // Streamed past the limit without a length: refused midway, nothing kept.
    process.env.UPLOAD_MAX_BYTES = "1000";
    const big = png(5000);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < big.length; i += 512) c.enqueue(big.subarray(i, i + 512));
        c.close();
      },
    });
    expect((await file("PUT", pngUrl, { body: stream, headers: ok })).status).toBe(413);
    expect(await storage().exists(key)).toBe(false);
    expect((await file("GET", pngUrl.split("?")[0])).status).toBe(404);
    // Within the limit it goes through.
    expect((await file("PUT", pngUrl, { body: png(500), headers: ok })).status).toBe(200);
    expect(await storage().exists(key)).toBe(true);
    // The stored location never changed.
    const stored = await db().subject.findUniqueOrThrow({ where: { id: Number(created.body.subjects[0].id) } });
    expect((stored.locations as Record<string, string>[])[0]["image/png"]).toBe(pngUrl.split("?")[0]);
  });

  it("serves files outside subjects/ only with a signed GET URL; bad keys are 404", async () => {
    await storage().putObject("exports/test-file.csv", "a,b\n1,2\n", { contentType: "text/csv" });
    const bare = `http://localhost:3000/uploads/exports/test-file.csv`;
    expect((await file("GET", bare)).status).toBe(403);
    const signed = await signedUrl("GET", "exports/test-file.csv");
    const got = await file("GET", signed);
    expect(got.status).toBe(200);
    expect(got.bytes.toString()).toBe("a,b\n1,2\n");
    expect(got.headers.get("content-disposition")).toMatch(/attachment/);
    expect((await file("GET", await signedUrl("GET", "exports/test-file.csv", { ttlSeconds: -1 }))).status).toBe(403);
    expect((await file("GET", "http://localhost:3000/uploads/subjects/..%2F..%2Fkeys.json")).status).toBe(404);
    expect((await file("GET", "http://localhost:3000/uploads/subjects/1/x.png.meta.json")).status).toBe(404);
  });
});
