"use client";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { send } from "@/components/ui/api-client";
import {
  IndexedDbStore,
  MemoryStore,
  newPendingItem,
  PendingQueue,
  type PendingItem,
  type SendResult,
} from "@/lib/classifier/pending-queue";

async function sendClassification(item: PendingItem): Promise<SendResult> {
  try {
    const res = await send("api", "/classifications", { method: "POST", json: item.body, headers: { "Idempotency-Key": item.id } });
    return { status: res.status, message: (res.body as { errors?: { message?: string }[] } | null)?.errors?.[0]?.message };
  } catch (e) {
    return { networkError: (e as Error).message || "network error" };
  }
}

interface PendingApi {
  items: PendingItem[];
  /** Classifications the server has stored since this page was opened (including ones left from before). */
  stored: number;
  submit(body: unknown): Promise<void>;
  retry(): void;
  dismiss(id: string): void;
}

const Ctx = createContext<PendingApi | null>(null);
export const usePending = () => useContext(Ctx)!;

/**
 * Owns the page's pending queue: Done only stores the classification here and returns; it is sent in the
 * background, again on `online`, on a timer following the backoff, and on the next page load.
 */
export function PendingProvider({ children }: { children: React.ReactNode }) {
  const [stored, setStored] = useState(0);
  const queue = useMemo(
    () =>
      new PendingQueue(typeof indexedDB === "undefined" ? new MemoryStore() : new IndexedDbStore(), sendClassification, Date.now, () =>
        setStored((n) => n + 1),
      ),
    [],
  );
  const [items, setItems] = useState<PendingItem[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const flush = useCallback(
    async (force = false) => {
      try {
        await queue.flush(force);
      } finally {
        setItems(await queue.list().catch(() => []));
        if (timer.current) clearTimeout(timer.current);
        const due = await queue.nextDue().catch(() => null);
        if (due !== null) timer.current = setTimeout(() => void flush(), Math.max(250, due - Date.now()));
      }
    },
    [queue],
  );

  useEffect(() => {
    // What an earlier visit left behind is sent at once, whatever its backoff said.
    void flush(true);
    const online = () => void flush(true);
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [flush]);

  const api: PendingApi = {
    items,
    stored,
    submit: async (body) => {
      await queue.add(newPendingItem(body));
      setItems(await queue.list());
      void flush();
    },
    retry: () => void flush(true),
    dismiss: (id) => void queue.dismiss(id).then(() => flush()),
  };
  return <Ctx.Provider value={api}>{children}</Ctx.Provider>;
}
