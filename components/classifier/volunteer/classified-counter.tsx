"use client";
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "@/components/ui/api-client";
import type { ProjectPreferenceRecord, Records } from "@/components/ui/wire-types";
import { useMe } from "./preferences";

/** The signed-in volunteer's activity_count on this project as it was when the page opened; null when anonymous. */
function useActivityCount(projectId: string) {
  const me = useMe();
  const id = me.data?.id;
  return useQuery({
    queryKey: ["activity-count", projectId, id ?? null],
    enabled: !me.isPending,
    queryFn: async () => {
      if (!id) return null;
      const prefs = await apiGet<Records<"project_preferences", ProjectPreferenceRecord>>(
        `/project_preferences?project_id=${projectId}&user_id=${id}`,
      );
      return prefs.project_preferences[0]?.activity_count ?? 0;
    },
    staleTime: Infinity,
    retry: 1,
  });
}

/** "You have classified N subjects": the stored count plus this session's Done presses (only the latter when anonymous). */
export function ClassifiedCounter({ projectId, session }: { projectId: string; session: number }) {
  const count = useActivityCount(projectId);
  if (count.isPending) return null;
  const total = (count.data ?? 0) + session;
  return (
    <p data-testid="classified-counter" className="text-sm text-gray-700">
      {count.data === null || count.isError
        ? `You have classified ${session} ${session === 1 ? "subject" : "subjects"} in this session.`
        : `You have classified ${total} ${total === 1 ? "subject" : "subjects"} in this project.`}
    </p>
  );
}
