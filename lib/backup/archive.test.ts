import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ArchiveWriter, extractArchive, isSafeName } from "./archive";

// The backup file's tar writer and reader: names of any length survive the round trip (PAX records past
// the plain header's 100 + 155 characters), gzip or not, with every file's size and SHA-256; the reader
// takes only relative names inside its directory.

const root = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-archive-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const NAMES = [
  "manifest.json",
  `files/uploads/${"a".repeat(90)}.png`,
  `files/uploads/subjects/12/${"b".repeat(120)}/${"c".repeat(60)}.png.meta.json`,
  `files/uploads/${"d/".repeat(200)}e.csv`,
  `files/uploads/${"f".repeat(150)}.png`,
  "files/uploads/naïve ünïcode.txt",
];

describe("backup archives", () => {
  it.each([
    { gzip: true, ext: "tar.gz" },
    { gzip: false, ext: "tar" },
  ])("round-trips files and directories with names of any length ($ext)", async ({ gzip, ext }) => {
    const file = path.join(root, `round.${ext}`);
    const w = new ArchiveWriter(file, gzip);
    await w.addDirectory("files");
    const contents = new Map<string, Buffer>();
    for (const [i, name] of NAMES.entries()) {
      const data = crypto.randomBytes(i * 700);
      contents.set(name, data);
      if (i % 2) await w.addBuffer(name, data);
      else {
        const source = path.join(root, `source-${i}`);
        fs.writeFileSync(source, data);
        expect(await w.addFile(name, source)).toBe(true);
      }
    }
    expect(await w.addFile("files/gone", path.join(root, "no-such-file"))).toBe(false);
    await w.finish();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const out = path.join(root, `out-${ext}`);
    const read = await extractArchive(file, out, () => true);
    expect([...read.keys()].sort()).toEqual([...NAMES].sort());
    expect(w.files.map((f) => read.get(f.name))).toEqual(w.files);
    for (const [name, data] of contents) expect(fs.readFileSync(path.join(out, ...name.split("/")))).toEqual(data);
    expect(fs.statSync(path.join(out, "files")).isDirectory()).toBe(true);

    // Any tar reads it.
    const listed = spawnSync("tar", ["-tf", file], { encoding: "utf8" });
    expect(listed.status).toBe(0);
    expect(listed.stdout.split("\n")).toEqual(expect.arrayContaining(NAMES));
  });

  it.each([
    { names: ["files/a", "files/a/b"], error: /entry "files\/a(\/b)?" cannot be extracted/ },
    { names: ["files/a/b", "files/a"], error: /entry "files\/a" cannot be extracted/ },
    { names: ["files/a", "files/a"], error: /holds files\/a twice/ },
    // The file is on disk by the time the directory comes (after a large file).
    { names: ["files/a", "files/large", "files/a/b/"], error: /entry "files\/a\/b\/" cannot be extracted/ },
  ])("refuses an archive with $names", async ({ names, error }) => {
    const file = path.join(root, `bad-${crypto.randomBytes(4).toString("hex")}.tar`);
    const w = new ArchiveWriter(file, false);
    for (const name of names)
      if (name.endsWith("/")) await w.addDirectory(name.slice(0, -1));
      else await w.addBuffer(name, Buffer.alloc(name.endsWith("large") ? 4 * 1024 * 1024 : 1));
    await w.finish();
    const out = path.join(root, `bad-out-${crypto.randomBytes(4).toString("hex")}`);
    await expect(extractArchive(file, out, () => true)).rejects.toThrow(error);
  });

  it.each([
    ["database/cluster/base/1/112", true],
    ["manifest.json", true],
    ["", false],
    ["/etc/passwd", false],
    ["../x", false],
    ["files/../../x", false],
    ["files/./x", false],
    ["files//x", false],
    ["files\\..\\x", false],
    ["files/x\0y", false],
  ])("isSafeName(%j) is %s", (name, safe) => {
    expect(isSafeName(name as string)).toBe(safe);
  });
});
