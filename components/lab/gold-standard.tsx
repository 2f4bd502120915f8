"use client";
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "@/components/ui/api-client";
import { QueryState } from "@/components/ui/query-state";
import { Panel } from "@/components/ui/panel";
import type { ClassificationRecord, RecordPage } from "@/components/ui/wire-types";
import { formatMoment } from "@/lib/text/format";

const summary = (annotations: ClassificationRecord["annotations"]) =>
  annotations.map((a) => `${a.task}: ${JSON.stringify(a.value).slice(0, 60)}`).join("; ");

/**
 * The workflow's gold standard: the reference classifications its owners, collaborators and experts made
 * in the classifier's gold standard mode (the engine's and the classifier's feedback compare with them).
 */
export function GoldStandard({ workflowId }: { workflowId: number }) {
  const gold = useQuery({
    queryKey: ["lab-gold-standard", workflowId],
    queryFn: async () =>
      await apiGet<RecordPage<"classifications", ClassificationRecord>>(
        `/classifications/gold_standard?workflow_id=${workflowId}&page_size=50&sort=-id`,
      ),
    staleTime: 0,
  });
  return (
    <Panel dense id="gold-heading" title="Gold standard">
      <p className="text-sm text-gray-600">
        Owners, collaborators and experts classify in <em>gold standard mode</em> (a switch above the classifier) to give reference answers
        for subjects.
      </p>
      <QueryState query={gold} what="gold standard">
        {gold.data?.classifications.length === 0 ? (
          <p>No gold standard classifications yet.</p>
        ) : (
          <table className="w-full text-left text-sm [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
            <caption className="text-left text-sm text-gray-600">
              {gold.data?.meta.classifications.count} gold standard classifications
            </caption>
            <thead>
              <tr>
                <th scope="col">Classification</th>
                <th scope="col">Subject</th>
                <th scope="col">Made</th>
                <th scope="col">Answers</th>
              </tr>
            </thead>
            <tbody>
              {gold.data?.classifications.map((c) => (
                <tr key={c.id} className="border-t border-gray-100">
                  <td>{c.id}</td>
                  <td>{c.links.subjects.join(", ")}</td>
                  <td>{formatMoment(c.created_at)}</td>
                  <td className="font-mono text-xs">{summary(c.annotations)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </Panel>
  );
}
