// Compression as a client that accepts gzip (every browser, python-requests) gets it from the production
// server: a small JSON answer goes out as it is (compressing it would cost the server a zlib stream and
// save no round trip), marked no-transform so proxies leave it so too; a large one is gzipped. Read with
// node:http, which (unlike Playwright's client) shows the bytes and headers as sent.
import http from "node:http";
import zlib from "node:zlib";
import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "../env";
import { accessToken, API_ACCEPT, createProject, uniqueName } from "../support";

function get(path: string, token: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      new URL(path, E2E_BASE_URL),
      { headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip, deflate" } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
  });
}

test("small JSON answers are sent uncompressed, large ones gzipped", async ({ request }) => {
  const token = await accessToken(request);
  const small = await createProject(request, token, { display_name: uniqueName("Small") });
  const large = await createProject(request, token, {
    display_name: uniqueName("Large"),
    description: "A long description. ".repeat(1000),
  });

  const a = await get(`/api/projects/${small.id}`, token);
  expect(a.status).toBe(200);
  expect(a.headers["content-encoding"]).toBeUndefined();
  expect(a.headers["cache-control"]).toContain("no-transform");
  expect(a.body.length).toBeLessThan(12 * 1024);
  expect(JSON.parse(a.body.toString()).projects[0].id).toBe(small.id);

  const missing = await get("/api/nowhere", token);
  expect(missing.status).toBe(404);
  expect(missing.headers["content-encoding"]).toBeUndefined();

  const b = await get(`/api/projects/${large.id}`, token);
  expect(b.status).toBe(200);
  expect(b.headers["content-encoding"]).toBe("gzip");
  expect(b.headers["cache-control"] ?? "").not.toContain("no-transform");
  const text = zlib.gunzipSync(b.body).toString();
  expect(text.length).toBeGreaterThan(12 * 1024);
  expect(b.body.length).toBeLessThan(text.length / 2);
  expect(JSON.parse(text).projects[0].id).toBe(large.id);
});
