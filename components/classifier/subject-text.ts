import { useQuery } from "@tanstack/react-query";
import { fetchSubjectFileText } from "@/components/ui/api-client";
import { useUploadUrl } from "@/components/ui/upload-url-context";

/** A text subject's text, fetched once and shared by the viewer and the highlighter. */
export function useSubjectText(location: string | null) {
  // Ours by path on this page's origin (a fetch to PUBLIC_URL's would be cross-origin from another name).
  const local = useUploadUrl();
  const url = location && local(location);
  return useQuery({
    queryKey: ["subject-text", url],
    enabled: !!url,
    staleTime: Infinity,
    queryFn: () => fetchSubjectFileText(url!),
  });
}
