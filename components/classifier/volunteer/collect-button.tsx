"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Dialog } from "../lazy-dialog";
import { apiGet, apiPost } from "@/components/ui/api-client";
import { useMe } from "./preferences";
import { QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import type { CollectionRecord, Records } from "@/components/ui/wire-types";

/**
 * "Add to collection" for the current subject (signed-in volunteers): a dialog (the UI's) listing their
 * collections (those already holding the subject are marked), adding it to one, or creating a new collection
 * with it.
 */
export function CollectButton({ projectId, subjectId }: { projectId: string; subjectId: string }) {
  const me = useMe();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const { outcome: status, run, reset } = useAction();
  const key = ["my-collections", me.data?.login];
  const collections = useQuery({
    queryKey: key,
    enabled: !!me.data,
    queryFn: async () =>
      (
        await apiGet<Records<"collections", CollectionRecord>>(
          `/collections?owner=${encodeURIComponent(me.data!.login)}&favorite=false&sort=display_name&page_size=100`,
        )
      ).collections,
  });
  if (!me.data) return null;
  const add = (c: CollectionRecord) =>
    run(async () => {
      await apiPost(`/collections/${c.id}/links/subjects`, { subjects: [subjectId] });
      await client.invalidateQueries({ queryKey: key });
      return `Added to “${c.display_name}”.`;
    });
  const create = () =>
    run(async () => {
      await apiPost("/collections", {
        collections: { display_name: name.trim(), private: isPrivate, links: { projects: [projectId], subjects: [subjectId] } },
      });
      setName("");
      await client.invalidateQueries({ queryKey: key });
      return `Created “${name.trim()}” with this subject.`;
    });
  const button =
    "rounded border border-gray-300 bg-white px-3 py-1 text-sm hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600";
  return (
    <>
      <button
        type="button"
        className={button}
        aria-haspopup="dialog"
        onClick={() => {
          reset();
          setOpen(true);
        }}
      >
        Add to collection
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={`Add subject ${subjectId} to a collection`}>
        <div className="flex flex-col gap-3">
          <QueryState query={collections} what="collections" empty={<>You have no collections yet.</>}>
            <ul className="flex max-h-60 flex-col gap-1 overflow-y-auto" aria-label="Your collections">
              {collections.data?.map((c) => {
                const has = !!c.links.subjects?.includes(subjectId);
                return (
                  <li key={c.id} className="flex items-center justify-between gap-2">
                    <span>
                      {c.display_name}
                      {c.private ? <span className="text-xs text-gray-600"> (private)</span> : null}
                    </span>
                    <button type="button" className={button} disabled={has} onClick={() => void add(c)}>
                      {has ? "Added" : "Add"}
                      <span className="sr-only"> to {c.display_name}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </QueryState>
          <form
            className="flex flex-col gap-2 border-t border-gray-200 pt-3"
            onSubmit={(e) => {
              e.preventDefault();
              if (name.trim()) void create();
            }}
          >
            <label className="flex flex-col gap-1 text-sm">
              <span className="font-medium">New collection</span>
              <input
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                maxLength={255}
                className="rounded border border-gray-300 px-3 py-1.5"
              />
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} /> Private
            </label>
            <button
              type="submit"
              className={
                "self-start rounded bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white " +
                "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 " +
                "focus-visible:outline-brand-600"
              }
            >
              Create with this subject
            </button>
          </form>
          <StatusMessage outcome={status} />
        </div>
      </Dialog>
    </>
  );
}
