import { useQuery } from "@tanstack/react-query";
import { fetchSubjectFileText } from "@/components/ui/api-client";

/** A text subject's text, fetched once and shared by the viewer and the highlighter. */
export function useSubjectText(url: string | null) {
  return useQuery({
    queryKey: ["subject-text", url],
    enabled: !!url,
    staleTime: Infinity,
    queryFn: () => fetchSubjectFileText(url!),
  });
}
