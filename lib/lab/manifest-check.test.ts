import { describe, expect, it } from "vitest";
import { checkManifest } from "./manifest-check";

describe("checkManifest", () => {
  it.each([
    ["a good manifest", "location,name\nhttps://e.org/a.png,A\nhttps://e.org/b.jpg,B\n", null, 2, []],
    ["typed location column", "location:image/png,#priority\nhttps://e.org/a,1\n", null, 1, []],
    ["file names with a base URL", "location,external_id\na.png,x1\n", "https://cdn.e.org/set/", 1, []],
    [
      "file names without a base URL",
      "location\na.png\n",
      null,
      1,
      [{ line: 2, message: "'a.png' is not an http(s) URL (give base_url to import file names)" }],
    ],
    [
      "every bad row at once, with its line",
      "location,name\nhttps://e.org/a.png,A\nftp://e.org/b.png,B\n,C\nhttps://e.org/noext,D\n",
      null,
      4,
      [
        { line: 3, message: "'ftp://e.org/b.png' is not an http(s) URL (give base_url to import file names)" },
        { line: 4, message: "no location" },
        { line: 5, message: "cannot tell the media type of 'https://e.org/noext' (name the column 'location:<mime type>')" },
      ],
    ],
    [
      "no location column",
      "name,other\nA,B\n",
      null,
      1,
      [{ line: 1, message: "the header needs a location column ('location', or 'location:<mime type>')" }],
    ],
    [
      "a bad media type in the header",
      "location:application/x-sh\nhttps://e.org/a\n",
      null,
      1,
      [{ line: 1, message: "header 'location:application/x-sh': 'application/x-sh' is not an accepted media type" }],
    ],
    ["a header twice", "location,Location\nhttps://e.org/a.png,x\n", null, 1, [{ line: 1, message: "the header names 'Location' twice" }]],
    ["empty", "", null, 0, [{ line: null, message: "the manifest is empty" }]],
    ["a header only", "location\n", null, 0, [{ line: null, message: "the manifest has a header but no rows" }]],
  ] as const)("%s", (_n, text, base, rows, errors) => {
    const got = checkManifest(text, base);
    expect(got.rows).toBe(rows);
    expect(got.errors).toEqual(errors);
  });

  it("reports a CSV syntax error", () => {
    const got = checkManifest('location,name\n"https://e.org/a.png,A\n', null);
    expect(got.errors[0].message).toMatch(/^invalid CSV/);
  });
});
