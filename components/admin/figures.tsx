import { Panel } from "@/components/ui/panel";
import { formatNumber } from "@/lib/text/format";

interface PlatformFigures {
  users: number;
  projects: number;
  launchedProjects: number;
  classificationsToday: number;
  inboxDepth: number;
  inboxOldestSeconds: number;
  jobs: { waiting: number; running: number; retrying: number; failed: number };
}

/** Seconds as the largest whole unit a reader takes in at once: "42 s", "7 min", "3 h". */
function lag(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** The platform at a glance: people, projects, today's classifications, the engine's inbox and the job queue. */
export function Figures({ figures: f }: { figures: PlatformFigures }) {
  const items: [string, string, string?][] = [
    ["Users", formatNumber(f.users)],
    ["Projects", formatNumber(f.projects), `${formatNumber(f.launchedProjects)} launched`],
    ["Classifications today", formatNumber(f.classificationsToday), "UTC day, as folded into the counts"],
    ["Engine inbox", formatNumber(f.inboxDepth), f.inboxDepth ? `oldest waiting ${lag(f.inboxOldestSeconds)}` : "nothing waiting"],
    [
      "Background jobs",
      formatNumber(f.jobs.waiting + f.jobs.running),
      `${formatNumber(f.jobs.retrying)} retrying · ${formatNumber(f.jobs.failed)} failed`,
    ],
  ];
  return (
    <Panel id="figures-heading" title="The platform now">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {items.map(([label, value, note]) => (
          <div key={label} className="flex flex-col rounded border border-gray-200 p-3">
            <dt className="text-sm text-gray-600">{label}</dt>
            <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
            {note && <dd className="text-xs text-gray-600">{note}</dd>}
          </div>
        ))}
      </dl>
    </Panel>
  );
}
