// A job runs in a log context of its own: the request that caused it (its payload's request_id), its id and task.
import { describe, expect, it } from "vitest";
import type { JobHelpers, Task } from "graphile-worker";
import { logContext, type LogContext } from "@/lib/log/context";
import { inJobContext } from "./worker";

describe("jobs' log context", () => {
  it.each([
    [
      { job_id: 3, request_id: "req-9" },
      { requestId: "req-9", jobId: "41", task: "subjects_export" },
    ],
    [{ job_id: 3 }, { requestId: undefined, jobId: "41", task: "subjects_export" }],
    [
      { job_id: 3, request_id: 12 },
      { requestId: undefined, jobId: "41", task: "subjects_export" },
    ],
  ])("payload %j runs with %j", async (payload, want) => {
    let seen: LogContext | undefined;
    const tasks = inJobContext({ subjects_export: (async () => void (seen = logContext())) as Task });
    await (tasks.subjects_export as Task)(payload, { job: { id: "41" } } as unknown as JobHelpers);
    expect(seen).toEqual(want);
    expect(logContext()).toBeUndefined();
  });
});
