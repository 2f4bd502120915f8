import { trimTrailingSlashes } from "@/lib/text/trim-slashes";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PassThrough, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { Header, Parser, Pax, type ReadEntry } from "tar";

// The backup file: a tar archive (gzip-compressed unless its name ends in .tar), readable with any tar.
// Entries are written here rather than by tar's own packer because the database's files change while they
// are copied (the server keeps running): a file that shrank after its size was taken is padded with zeros
// and one that grew is cut at that size, as pg_basebackup does; the WAL replayed at restore repairs both.
// Every file's size and SHA-256 go into the manifest, which restore checks before it uses anything.

export interface ArchivedFile {
  name: string;
  size: number;
  sha256: string;
}

const BLOCK = 512;
const CHUNK = 1024 * 1024;

export class ArchiveWriter {
  readonly files: ArchivedFile[] = [];
  private readonly input = new PassThrough({ highWaterMark: CHUNK });
  private readonly done: Promise<void>;
  private failed: Error | null = null;

  /** Writes to `file` (created with mode 0600: the archive holds secrets), gzip-compressed when `gzip`. */
  constructor(file: string, gzip: boolean) {
    const out = fs.createWriteStream(file, { flags: "wx", mode: 0o600 });
    this.done = (gzip ? pipeline(this.input, zlib.createGzip(), out) : pipeline(this.input, out)).catch((err) => {
      this.failed = err;
      throw err;
    });
    this.done.catch(() => {});
  }

  private async write(buf: Buffer): Promise<void> {
    if (this.failed) throw this.failed;
    if (!this.input.write(buf)) await new Promise<void>((resolve) => this.input.once("drain", resolve));
  }

  private async header(name: string, type: "File" | "Directory", size: number, mode: number, mtime: Date) {
    const header = new Header({ path: name, type, size, mode, mtime, uid: 0, gid: 0, uname: "", gname: "" });
    // A name too long for the plain header goes in a PAX record before it.
    if (header.encode()) await this.write(new Pax({ path: name, size, mtime }).encode());
    await this.write(header.block!);
  }

  async addDirectory(name: string, mode = 0o700): Promise<void> {
    await this.header(`${name}/`, "Directory", 0, mode, new Date());
  }

  async addBuffer(name: string, data: Buffer, mode = 0o600): Promise<void> {
    await this.header(name, "File", data.length, mode, new Date());
    await this.write(data);
    await this.pad(data.length);
    this.files.push({ name, size: data.length, sha256: crypto.createHash("sha256").update(data).digest("hex") });
  }

  /** Copies `source` as `name`, at the size it has when opened. False when it no longer exists. */
  async addFile(name: string, source: string): Promise<boolean> {
    let fd: fs.promises.FileHandle;
    try {
      fd = await fs.promises.open(source, "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
    try {
      const stat = await fd.stat();
      await this.header(name, "File", stat.size, stat.mode & 0o7777, stat.mtime);
      const hash = crypto.createHash("sha256");
      let left = stat.size;
      while (left > 0) {
        const buf = Buffer.alloc(Math.min(CHUNK, left));
        const { bytesRead } = await fd.read(buf, 0, buf.length, stat.size - left);
        // Shrunk since: the rest stays zeros.
        const chunk = bytesRead === 0 ? buf : buf.subarray(0, bytesRead);
        hash.update(chunk);
        await this.write(chunk);
        left -= chunk.length;
      }
      await this.pad(stat.size);
      this.files.push({ name, size: stat.size, sha256: hash.digest("hex") });
      return true;
    } finally {
      await fd.close();
    }
  }

  private async pad(size: number) {
    const rest = size % BLOCK;
    if (rest) await this.write(Buffer.alloc(BLOCK - rest));
  }

  /** Ends the archive and waits until it is on disk. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(2 * BLOCK));
    this.input.end();
    await this.done;
  }

  /** Stops writing after a failure (the caller removes the file). */
  async abort(): Promise<void> {
    this.input.destroy();
    await this.done.catch(() => {});
  }
}

/** An archive member name is relative, '/'-separated, without empty, '.' or '..' parts. */
export function isSafeName(name: string): boolean {
  if (!name || name.length > 4096 || name.startsWith("/") || name.includes("\\") || name.includes("\0")) return false;
  return name.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/**
 * Extracts the archive at `file` (gzip-compressed or not) into `dir`: only regular files and directories,
 * only names `accept` takes, never outside `dir`. Answers each file's size and SHA-256 as read.
 */
export async function extractArchive(file: string, dir: string, accept: (name: string) => boolean): Promise<Map<string, ArchivedFile>> {
  const files = new Map<string, ArchivedFile>();
  const writes: Promise<void>[] = [];
  const streams: Transform[] = [];
  let failure: Error | null = null;
  // The database's files are mostly zeros: they compress far beyond tar's default guard against archive bombs.
  const parser = new Parser({ strict: true, maxDecompressionRatio: Number.POSITIVE_INFINITY });
  const refuse = (entry: ReadEntry, message: string) => {
    failure ??= new Error(message);
    entry.resume();
  };
  parser.on("entry", (entry: ReadEntry) => {
    try {
      take(entry);
    } catch (err) {
      // A file where a directory should be, or the other way round.
      refuse(entry, `The archive's entry ${JSON.stringify(entry.path)} cannot be extracted: ${(err as Error).message}`);
    }
  });
  const take = (entry: ReadEntry) => {
    const name = trimTrailingSlashes(entry.path);
    if (failure) return void entry.resume();
    if (!isSafeName(name) || !accept(name))
      return refuse(entry, `The archive holds an entry a backup does not have: ${JSON.stringify(entry.path)}`);
    const target = path.join(dir, ...name.split("/"));
    if (entry.type === "Directory") {
      fs.mkdirSync(target, { recursive: true, mode: 0o700 });
      return void entry.resume();
    }
    if (entry.type !== "File" && entry.type !== "OldFile")
      return refuse(entry, `The archive holds a ${entry.type} entry (${name}); a backup holds only files and directories`);
    if (files.has(name)) return refuse(entry, `The archive holds ${name} twice`);
    files.set(name, { name, size: 0, sha256: "" });
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    const hash = crypto.createHash("sha256");
    let size = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        hash.update(chunk);
        size += chunk.length;
        cb(null, chunk);
      },
    });
    streams.push(hashing);
    const written = pipeline(hashing, fs.createWriteStream(target, { flags: "wx", mode: 0o600 })).then(
      () => void files.set(name, { name, size, sha256: hash.digest("hex") }),
      (err) => {
        throw new Error(`The archive's entry ${JSON.stringify(name)} cannot be extracted: ${err.message}`);
      },
    );
    // Awaited below unless the archive turns out damaged first (then its stream is destroyed).
    written.catch(() => {});
    writes.push(written);
    entry.pipe(hashing);
  };
  await new Promise<void>((resolve, reject) => {
    const input = fs.createReadStream(file);
    input.on("error", reject);
    // strict: a damaged header or a truncated archive is an error, not a warning.
    parser.on("error", (err: Error) => {
      input.destroy();
      for (const stream of streams) stream.destroy();
      reject(new Error(`The archive is damaged: ${err.message}`));
    });
    parser.on("end", () => resolve());
    input.pipe(parser as unknown as NodeJS.WritableStream);
  });
  await Promise.all(writes);
  if (failure) throw failure;
  return files;
}
