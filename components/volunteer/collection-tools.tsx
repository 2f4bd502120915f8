"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiDeleteFresh, apiPost, apiPutFresh } from "@/components/ui/api-client";
import { buttonClass, Check, dangerButtonClass, primaryButtonClass, TextInput } from "@/components/ui/controls";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import type { CollectionRecord, Records } from "@/components/ui/wire-types";

/** A new, empty collection of the signed-in volunteer (subjects are added from the classify page); opens it. */
export function NewCollectionForm() {
  const router = useRouter();
  const [name, setName] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const create = useAction();
  return (
    <form
      className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        void create.run(async () => {
          const made = await apiPost<Records<"collections", CollectionRecord>>("/collections", {
            collections: { display_name: name.trim(), private: isPrivate },
          });
          router.push(`/collections/${made.collections[0].id}`);
        });
      }}
    >
      <TextInput label="New collection" value={name} onChange={setName} required className="sm:w-80" />
      <Check label="Private: only you can see it" checked={isPrivate} onChange={setPrivate} />
      <button type="submit" className={`${primaryButtonClass} self-start`} disabled={create.busy}>
        Create collection
      </button>
      <StatusMessage outcome={create.outcome} />
    </form>
  );
}

/** "Copy link" for a public collection: its address to the clipboard (shown too, to copy by hand). */
export function ShareLink({ path }: { path: string }) {
  const copy = useAction();
  const [url, setUrl] = useState("");
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={buttonClass}
          onClick={() =>
            void copy.run(async () => {
              const address = new URL(path, window.location.href).href;
              setUrl(address);
              await navigator.clipboard.writeText(address);
              return "Link copied.";
            })
          }
        >
          Copy link
        </button>
        {url && (
          <input
            readOnly
            aria-label="Link to this collection"
            value={url}
            className="min-w-0 flex-1 rounded border border-gray-300 px-2 py-1 text-sm"
            onFocus={(e) => e.target.select()}
          />
        )}
      </div>
      <StatusMessage outcome={copy.outcome} />
    </div>
  );
}

/** The owner's controls of a collection: rename, public or private, delete (after a confirmation). */
export function CollectionSettings({ id, name, isPrivate }: { id: number; name: string; isPrivate: boolean }) {
  const router = useRouter();
  const [draft, setDraft] = useState(name);
  const [confirming, setConfirming] = useState(false);
  const save = useAction();
  const put = (collections: object, done: string) =>
    save.run(async () => {
      await apiPutFresh(`/collections/${id}`, { collections });
      router.refresh();
      return done;
    });
  return (
    <section aria-labelledby="collection-settings" className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4">
      <h2 id="collection-settings" className="text-lg font-semibold">
        Collection settings
      </h2>
      <form
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          void put({ display_name: draft.trim() }, "Renamed.");
        }}
      >
        <TextInput label="Name" value={draft} onChange={setDraft} required className="sm:w-72" />
        <button type="submit" className={buttonClass} disabled={save.busy || !draft.trim() || draft.trim() === name}>
          Rename
        </button>
      </form>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span>
          This collection is <strong>{isPrivate ? "private" : "public"}</strong>:{" "}
          {isPrivate ? "only you can see it." : "anyone with the link can see it."}
        </span>
        <button
          type="button"
          className={buttonClass}
          disabled={save.busy}
          onClick={() => void put({ private: !isPrivate }, isPrivate ? "The collection is public." : "The collection is private.")}
        >
          {isPrivate ? "Make public" : "Make private"}
        </button>
      </p>
      {confirming ? (
        <div role="group" aria-label="Confirm deletion" className="flex flex-col gap-2 rounded border border-red-200 bg-red-50 p-3 text-sm">
          <p>Delete “{name}”? Its subjects stay in their projects; the collection and its link are gone for good.</p>
          <div className="flex gap-2">
            <button
              type="button"
              className={dangerButtonClass}
              disabled={save.busy}
              onClick={() =>
                void save.run(async () => {
                  await apiDeleteFresh(`/collections/${id}`);
                  router.push("/collections");
                })
              }
            >
              Delete collection
            </button>
            <button type="button" className={buttonClass} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className={`${buttonClass} self-start`} onClick={() => setConfirming(true)}>
          Delete…
        </button>
      )}
      <StatusMessage outcome={save.outcome} busy={save.busy} />
    </section>
  );
}
