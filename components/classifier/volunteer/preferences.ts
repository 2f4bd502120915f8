"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiPost, apiPutFresh } from "@/components/ui/api-client";
import type { ProjectPreferenceRecord, Records, UserRecord } from "@/components/ui/wire-types";

// The signed-in volunteer and their project preference, where the classifier remembers what the
// established front end remembers there: tutorials_completed_at per tutorial, and the mini-course's place.
// Anonymous volunteers' choices are kept in this browser (localStorage) instead.

/** The signed-in user (id and login) or null, from /api/me (the classify page seeds null for an anonymous visitor). */
export function useMe() {
  return useQuery({
    queryKey: ["me"],
    queryFn: async () => (await apiGet<Records<"users", UserRecord>>("/me").catch(() => null))?.users?.[0] ?? null,
    staleTime: Infinity,
  });
}

export function usePreference(projectId: string) {
  const me = useMe();
  const client = useQueryClient();
  const key = ["project-preference", projectId, me.data?.id];
  const query = useQuery({
    queryKey: key,
    enabled: !!me.data,
    queryFn: async () =>
      (
        await apiGet<Records<"project_preferences", ProjectPreferenceRecord>>(
          `/project_preferences?project_id=${projectId}&user_id=${me.data!.id}`,
        )
      ).project_preferences[0] ?? null,
    staleTime: 60_000,
  });
  /** Merges `patch` into the preference's `preferences` (one level deep per key), creating it when missing. */
  const save = async (patch: Record<string, Record<string, unknown> | unknown>) => {
    if (!me.data) return;
    const current = query.data ?? (await query.refetch()).data ?? null;
    const base = current?.preferences ?? {};
    const merged: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(patch)) {
      const old = base[k];
      merged[k] =
        v && typeof v === "object" && !Array.isArray(v) && old && typeof old === "object" && !Array.isArray(old)
          ? { ...(old as object), ...(v as object) }
          : v;
    }
    if (current) await apiPutFresh(`/project_preferences/${current.id}`, { project_preferences: { preferences: merged } });
    else await apiPost("/project_preferences", { project_preferences: { preferences: merged, links: { project: projectId } } });
    await client.invalidateQueries({ queryKey: key });
  };
  return { signedIn: !!me.data, ready: !me.isPending && (!me.data || !query.isPending), preferences: query.data?.preferences ?? {}, save };
}
