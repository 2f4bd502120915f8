"use client";
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "@/components/ui/api-client";
import type { Records, TutorialRecord } from "@/components/ui/wire-types";

/**
 * The workflow's tutorial or mini-course with at least one step, or null (one request per workflow): those
 * written in the project's primary language (the API lists English unless asked), translated on top.
 */
export function useWorkflowTutorial(workflowId: string, kind: "tutorial" | "mini-course", primaryLanguage = "en") {
  return useQuery({
    queryKey: ["workflow-tutorials", workflowId, primaryLanguage],
    queryFn: async () =>
      (
        await apiGet<Records<"tutorials", TutorialRecord>>(
          `/tutorials?workflow_id=${workflowId}&language=${encodeURIComponent(primaryLanguage)}`,
        )
      ).tutorials,
    staleTime: 5 * 60_000,
    select: (all) =>
      all.find((t) => (kind === "mini-course" ? t.kind === "mini-course" : t.kind !== "mini-course") && t.steps.length) ?? null,
  });
}
