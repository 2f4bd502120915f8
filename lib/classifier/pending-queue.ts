// The classifications not yet stored: kept in IndexedDB until the server has answered 2xx, retried with
// backoff; every item carries the client id sent as Idempotency-Key, so a repeat POST stores nothing new.

export interface PendingItem {
  /** crypto.randomUUID() taken when Done was pressed; the Idempotency-Key header. */
  id: string;
  body: unknown;
  createdAt: number;
  attempts: number;
  /** Earliest time (ms) of the next automatic attempt. */
  nextAttemptAt: number;
  /** Set when the server refused the classification (4xx): kept for the volunteer to see and dismiss, never resent. */
  refused?: string;
  lastError?: string;
}

export interface PendingStore {
  all(): Promise<PendingItem[]>;
  put(item: PendingItem): Promise<void>;
  remove(id: string): Promise<void>;
}

export type SendResult = { status: number; message?: string } | { networkError: string };
export type Outcome = "stored" | "retry" | "refused";

/** 2xx stored; network errors, 408, 429 and 5xx are worth retrying; any other 4xx will never succeed. */
export function outcomeOf(result: SendResult): Outcome {
  if ("networkError" in result) return "retry";
  if (result.status >= 200 && result.status < 300) return "stored";
  if (result.status === 408 || result.status === 429 || result.status >= 500) return "retry";
  return "refused";
}

const BASE_MS = 2_000;
const MAX_MS = 5 * 60_000;

/** Exponential backoff after the n-th failed attempt (1-based): 2 s, 4 s, 8 s … capped at 5 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_MS, BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/** Items an automatic flush sends now: not refused and due (a manual retry sends every unrefused item). */
export function dueItems(items: PendingItem[], now: number, force = false): PendingItem[] {
  return items.filter((i) => !i.refused && (force || i.nextAttemptAt <= now)).sort((a, b) => a.createdAt - b.createdAt);
}

export function newPendingItem(body: unknown, now = Date.now(), id = crypto.randomUUID()): PendingItem {
  return { id, body, createdAt: now, attempts: 0, nextAttemptAt: now };
}

/**
 * Sends pending items one at a time and applies each outcome: stored → removed (exactly once: an item is
 * removed only after a 2xx, and a flush already running is joined rather than started twice), retry →
 * attempts + backoff, refused → kept with the server's message.
 */
export class PendingQueue {
  private running: Promise<void> | null = null;
  constructor(
    private store: PendingStore,
    private send: (item: PendingItem) => Promise<SendResult>,
    private now: () => number = Date.now,
    private onStored: (item: PendingItem) => void = () => {},
  ) {}

  add(item: PendingItem) {
    return this.store.put(item);
  }

  list() {
    return this.store.all();
  }

  dismiss(id: string) {
    return this.store.remove(id);
  }

  flush(force = false): Promise<void> {
    if (this.running) return this.running;
    this.running = this.flushOnce(force).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Earliest nextAttemptAt among retryable items, or null. */
  async nextDue(): Promise<number | null> {
    const items = (await this.store.all()).filter((i) => !i.refused);
    return items.length ? Math.min(...items.map((i) => i.nextAttemptAt)) : null;
  }

  private async flushOnce(force: boolean) {
    for (const item of dueItems(await this.store.all(), this.now(), force)) {
      let result: SendResult;
      try {
        result = await this.send(item);
      } catch (e) {
        result = { networkError: (e as Error).message };
      }
      const outcome = outcomeOf(result);
      if (outcome === "stored") {
        await this.store.remove(item.id);
        this.onStored(item);
      } else {
        const attempts = item.attempts + 1;
        const message = "networkError" in result ? result.networkError : (result.message ?? `HTTP ${result.status}`);
        await this.store.put(
          outcome === "refused"
            ? { ...item, attempts, refused: message, lastError: message }
            : { ...item, attempts, lastError: message, nextAttemptAt: this.now() + backoffMs(attempts) },
        );
        // Offline or server down: the rest would fail the same way; wait for the next trigger.
        if (outcome === "retry" && "networkError" in result) break;
      }
    }
  }
}

export class MemoryStore implements PendingStore {
  items = new Map<string, PendingItem>();
  async all() {
    return [...this.items.values()].map((i) => ({ ...i }));
  }
  async put(item: PendingItem) {
    this.items.set(item.id, { ...item });
  }
  async remove(id: string) {
    this.items.delete(id);
  }
}

const DB = "quorum-classifier";
const STORE = "pending-classifications";

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function run<T>(db: IDBDatabase, mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = op(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** The browser's store: one object store keyed by the client id, shared by the tabs of one origin. */
export class IndexedDbStore implements PendingStore {
  private db: Promise<IDBDatabase> | null = null;
  private open() {
    return (this.db ??= openDb());
  }
  async all() {
    return run(await this.open(), "readonly", (s) => s.getAll() as IDBRequest<PendingItem[]>);
  }
  async put(item: PendingItem) {
    await run(await this.open(), "readwrite", (s) => s.put(item));
  }
  async remove(id: string) {
    await run(await this.open(), "readwrite", (s) => s.delete(id));
  }
}
