import { useQuery } from "@tanstack/react-query";

/** A text subject's text, fetched once and shared by the viewer and the highlighter. */
export function useSubjectText(url: string | null) {
  return useQuery({
    queryKey: ["subject-text", url],
    enabled: !!url,
    staleTime: Infinity,
    queryFn: async () => {
      const res = await fetch(url!);
      if (!res.ok) throw new Error(`the text could not be loaded (${res.status})`);
      return res.text();
    },
  });
}
