// CPU time per process group during a measurement, read from /proc (Linux): where a request's cost lands
// (the web server, the worker, PostgreSQL, the load generator itself). A diagnosis beside the throughput
// figures: on a machine with few cores these groups compete, and a route's throughput is bounded by their
// sum, not by the web process alone.
import fs from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  ticks: number;
}

function readProcs(): Proc[] {
  const out: Proc[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    // pid (comm) state ppid ... utime(14) stime(15): comm may contain spaces, so split after its ')'.
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const f = stat.slice(close + 2).split(" ");
    out.push({ pid: Number(name), ppid: Number(f[1]), comm, ticks: Number(f[11]) + Number(f[12]) });
  }
  return out;
}

function descendants(procs: Proc[], root: number): Set<number> {
  const set = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs)
      if (!set.has(p.pid) && set.has(p.ppid)) {
        set.add(p.pid);
        grew = true;
      }
  }
  return set;
}

export type CpuGroups = Record<string, number>;
/** CPU ticks per process, with the group it belongs to. */
export type CpuSnapshot = Map<number, { group: string; ticks: number }>;

/** CPU ticks of the process trees rooted at `roots` (by group), every `postgres` process, and this process. */
export function cpuSnapshot(roots: Record<string, number | undefined>): CpuSnapshot {
  const out: CpuSnapshot = new Map();
  if (process.platform !== "linux") return out;
  const procs = readProcs();
  for (const [group, pid] of Object.entries(roots)) {
    if (!pid) continue;
    const tree = descendants(procs, pid);
    for (const p of procs) if (tree.has(p.pid)) out.set(p.pid, { group, ticks: p.ticks });
  }
  for (const p of procs) if (p.comm === "postgres" && !out.has(p.pid)) out.set(p.pid, { group: "postgres", ticks: p.ticks });
  const self = process.cpuUsage();
  out.set(process.pid, { group: "load_generator", ticks: ((self.user + self.system) / 1e6) * TICKS_PER_SECOND });
  return out;
}

/**
 * CPU milliseconds per request per group between two snapshots: per process, so processes that started
 * meanwhile count from zero (a process that ended meanwhile is not counted).
 */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): CpuGroups {
  const out: CpuGroups = {};
  for (const [pid, { group, ticks }] of after) out[group] = (out[group] ?? 0) + ticks - (before.get(pid)?.ticks ?? 0);
  for (const k of Object.keys(out)) out[k] = requests ? Math.round(((out[k] * 1000) / TICKS_PER_SECOND / requests) * 1000) / 1000 : 0;
  return out;
}
