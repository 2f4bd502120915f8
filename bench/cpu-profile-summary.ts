// npx tsx bench/cpu-profile-summary.ts <file.cpuprofile> [top]: where a V8 CPU profile (e.g. from
// BENCH_CPU_PROF=<dir> npm run bench:http) spent its time: self time by function, and by package or file
// (node_modules/<package>, our own files by path, node internals). A diagnosis aid, printed as JSON.
import fs from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: tsx bench/cpu-profile-summary.ts <file.cpuprofile> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

function area(url: string): string {
  if (!url) return "(native / idle / gc)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  if (url.startsWith("node:")) return "node internals";
  const own = /\/\.next\/server\/(.*)$/.exec(url);
  return own ? `.next/server/${own[1].split("/").slice(0, 3).join("/")}` : url.replace(/^file:\/\//, "");
}

const fnTotals = new Map<string, number>();
const areaTotals = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  const fn = `${n.callFrame.functionName || "(anonymous)"} ${area(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  fnTotals.set(fn, (fnTotals.get(fn) ?? 0) + us);
  const a = area(n.callFrame.url);
  areaTotals.set(a, (areaTotals.get(a) ?? 0) + us);
}
const pct = (us: number) => Math.round((us / total) * 1000) / 10;
const rank = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, self_percent: pct(us), self_ms: Math.round(us / 1000) }));
console.log(JSON.stringify({ total_ms: Math.round(total / 1000), by_area: rank(areaTotals), by_function: rank(fnTotals) }, null, 2));
