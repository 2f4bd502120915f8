import { describe, expect, it } from "vitest";
import { localUploadUrl, localUploadUrlOrNull } from "./upload-url";

describe("localUploadUrl", () => {
  const cases: [string, string, string, string][] = [
    ["a served file", "http://localhost:3000/uploads/subjects/1/a.png", "http://localhost:3000", "/uploads/subjects/1/a.png"],
    [
      "a signed PUT URL keeps its query",
      "http://localhost:3000/uploads/media/projects/2/b.png?content_type=image%2Fpng&expires=1&signature=x-y_z",
      "http://localhost:3000",
      "/uploads/media/projects/2/b.png?content_type=image%2Fpng&expires=1&signature=x-y_z",
    ],
    ["PUBLIC_URL with a trailing slash", "https://q.example.org/uploads/a.png", "https://q.example.org/", "/uploads/a.png"],
    ["a default port written out", "https://q.example.org:443/uploads/a.png", "https://q.example.org", "/uploads/a.png"],
    ["a host in capitals", "http://LOCALHOST:3000/uploads/a.png", "http://localhost:3000", "/uploads/a.png"],
    ["under a path prefix", "https://example.org/quorum/uploads/a.png", "https://example.org/quorum", "/quorum/uploads/a.png"],
    [
      "another host: hosted elsewhere",
      "https://cdn.example.org/uploads/a.png",
      "http://localhost:3000",
      "https://cdn.example.org/uploads/a.png",
    ],
    ["another port", "http://localhost:4000/uploads/a.png", "http://localhost:3000", "http://localhost:4000/uploads/a.png"],
    ["another scheme", "https://localhost:3000/uploads/a.png", "http://localhost:3000", "https://localhost:3000/uploads/a.png"],
    ["our origin, not an upload", "http://localhost:3000/api/projects/1", "http://localhost:3000", "http://localhost:3000/api/projects/1"],
    ["a look-alike path", "http://localhost:3000/uploadsx/a.png", "http://localhost:3000", "http://localhost:3000/uploadsx/a.png"],
    ["outside the path prefix", "https://example.org/uploads/a.png", "https://example.org/quorum", "https://example.org/uploads/a.png"],
    ["already a path", "/uploads/a.png", "http://localhost:3000", "/uploads/a.png"],
    ["a data URL", "data:image/png;base64,AAAA", "http://localhost:3000", "data:image/png;base64,AAAA"],
    ["not a URL", "not a url", "http://localhost:3000", "not a url"],
    ["an empty string", "", "http://localhost:3000", ""],
  ];
  it.each(cases)("%s", (_name, url, base, expected) => {
    expect(localUploadUrl(url, base)).toBe(expected);
  });

  it("passes null through", () => {
    expect(localUploadUrlOrNull(null, "http://localhost:3000")).toBeNull();
    expect(localUploadUrlOrNull("http://localhost:3000/uploads/a.png", "http://localhost:3000")).toBe("/uploads/a.png");
  });
});
