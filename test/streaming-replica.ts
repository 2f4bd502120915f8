import { execFile as execFileCb, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "@/lib/db/embedded";

// A PostgreSQL primary and a streaming replica of it (pg_basebackup -R), or a single server, from the
// distribution's packages (Debian's postgresql: /usr/lib/postgresql/<major>/bin; .ci/run installs it), for
// tests of the read replica and of backups through pg_dump. PostgreSQL refuses to run as root, so as root the servers run as the `postgres` system user
// the package creates. Trust authentication on 127.0.0.1 only; both servers live in one temp dir.

const execFile = promisify(execFileCb);

/** The newest installed PostgreSQL's bin directory under /usr/lib/postgresql, or null. */
export function postgresBinDir(root = "/usr/lib/postgresql"): string | null {
  const majors = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(root, v, "bin", "postgres")))
    : [];
  majors.sort((a, b) => Number(b) - Number(a));
  return majors.length ? path.join(root, majors[0], "bin") : null;
}

export interface PrimaryAndReplica {
  /** postgres superuser URLs of the `quorum` database on each server. */
  primaryUrl: string;
  replicaUrl: string;
  version: string;
  stop(): Promise<void>;
}

function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

export async function startPrimaryAndReplica(bin: string): Promise<PrimaryAndReplica> {
  const { primaryUrl, replicaUrl, version, stop } = await startServers(bin, true);
  return { primaryUrl, replicaUrl: replicaUrl!, version, stop };
}

/** One server of the distribution's PostgreSQL, with an empty `quorum` database (postgres superuser URL). */
export async function startDistributionServer(bin: string): Promise<{ url: string; version: string; stop(): Promise<void> }> {
  const { primaryUrl, version, stop } = await startServers(bin, false);
  return { url: primaryUrl, version, stop };
}

async function startServers(bin: string, withReplica: boolean) {
  const user = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-replica-"));
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const run = (cmd: string, args: string[]) =>
    execFile(path.join(bin, cmd), args, { cwd: dir, env: { ...process.env, PGUSER: "postgres" }, ...(user ?? {}) });
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  // Throwaway clusters: no fsync (commits still write their WAL at once, so it streams at once); sockets in the
  // temp dir (the packaged default dir may not exist).
  const flags = (port: number) =>
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c full_page_writes=off`;
  const version = async () => (await run("postgres", ["--version"])).stdout.trim();
  const started: string[] = [];
  const stop = async () => {
    for (const data of started.reverse()) await run("pg_ctl", ["stop", "-D", data, "-m", "immediate"]).catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run("initdb", ["-D", primaryDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
    await run("pg_ctl", ["start", "-w", "-D", primaryDir, "-l", path.join(dir, "primary.log"), "-o", flags(primaryPort)]);
    started.push(primaryDir);
    await run("createdb", ["-h", "127.0.0.1", "-p", String(primaryPort), "quorum"]);
    if (!withReplica)
      return { primaryUrl: `postgresql://postgres@127.0.0.1:${primaryPort}/quorum`, replicaUrl: null, version: await version(), stop };
    // -R writes standby.signal and primary_conninfo: the copy starts as a hot standby streaming from the primary.
    await run("pg_basebackup", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primaryPort),
      "-D",
      replicaDir,
      "-R",
      "-X",
      "stream",
      "--checkpoint=fast",
      "--no-sync",
    ]);
    await run("pg_ctl", ["start", "-w", "-D", replicaDir, "-l", path.join(dir, "replica.log"), "-o", flags(replicaPort)]);
    started.push(replicaDir);
  } catch (err) {
    const logs = ["primary.log", "replica.log"]
      .map((f) => path.join(dir, f))
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("\n");
    await stop();
    throw new Error(`${(err as Error).message}\n${logs}`);
  }
  return {
    primaryUrl: `postgresql://postgres@127.0.0.1:${primaryPort}/quorum`,
    replicaUrl: `postgresql://postgres@127.0.0.1:${replicaPort}/quorum`,
    version: await version(),
    stop,
  };
}
