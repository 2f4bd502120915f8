"use client";
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "@/components/ui/api-client";
import type { Records, TutorialRecord } from "@/components/ui/wire-types";

/** The workflow's tutorial or mini-course with at least one step, or null (one request per workflow). */
export function useWorkflowTutorial(workflowId: string, kind: "tutorial" | "mini-course") {
  return useQuery({
    queryKey: ["workflow-tutorials", workflowId],
    queryFn: async () => (await apiGet<Records<"tutorials", TutorialRecord>>(`/tutorials?workflow_id=${workflowId}`)).tutorials,
    staleTime: 5 * 60_000,
    select: (all) =>
      all.find((t) => (kind === "mini-course" ? t.kind === "mini-course" : t.kind !== "mini-course") && t.steps.length) ?? null,
  });
}
