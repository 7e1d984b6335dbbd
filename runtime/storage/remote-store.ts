// A Store whose data lives in another process (or thread): every call goes over a store link to the
// store server that owns the real Store, so writes from every RemoteStore are serialised by that one store
// and revisions keep its order. Watches stream the owner's events in revision order; the consumer asks for
// them ahead by a window, so a slow one holds at most that many here (docs/workers.md).

import { stopOnAbort } from "./abort-listener.js";
import { StoreClosedError } from "./storage-errors.js";
import type {
  DeleteOptions,
  DeleteResult,
  KeyValue,
  ListOptions,
  ListResult,
  ReadOptions,
  Store,
  WatchEvent,
} from "./store.js";
import type { StoreLink, StoreMessage, StoreOperation } from "./store-link.js";
import { fromWireError } from "./wire-error.js";

/** Events a watch asks for ahead of its consumer. */
const watchWindow = 1024;

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

class RemoteWatch implements AsyncIterableIterator<WatchEvent> {
  private readonly buffer: WatchEvent[] = [];
  /** Events asked for and not yet received. */
  private asked = 0;
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly id: number,
    private readonly link: StoreLink,
    private readonly forget: (id: number) => void,
  ) {}

  stopOn(signal: AbortSignal): void {
    this.unsubscribe = stopOnAbort(signal, () => this.stop());
  }

  deliver(event: WatchEvent): void {
    if (this.ended) return;
    this.asked--;
    this.buffer.push(event);
    this.wakeUp();
  }

  /** The far side ended the watch (or the link closed). */
  end(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = error;
    this.unsubscribe?.();
    this.forget(this.id);
    this.wakeUp();
  }

  /** The consumer no longer wants events: tell the far side, and end here at once. */
  stop(): void {
    if (this.ended) return;
    this.buffer.length = 0;
    this.failure = undefined;
    this.link.send({ t: "stop", id: this.id });
    this.end();
  }

  async next(): Promise<IteratorResult<WatchEvent>> {
    for (;;) {
      const event = this.buffer.shift();
      if (event !== undefined) {
        this.askAhead();
        return { done: false, value: event };
      }
      if (this.ended) {
        const failure = this.failure;
        this.failure = undefined;
        if (failure !== undefined) throw failure;
        return { done: true, value: undefined };
      }
      this.askAhead();
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  async return(): Promise<IteratorResult<WatchEvent>> {
    this.stop();
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<WatchEvent> {
    return this;
  }

  /** Keeps between half a window and a window of events asked for or buffered. */
  private askAhead(): void {
    if (this.ended) return;
    const held = this.asked + this.buffer.length;
    if (held > watchWindow / 2) return;
    const n = watchWindow - held;
    this.asked += n;
    this.link.send({ t: "pull", id: this.id, n });
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

export class RemoteStore implements Store {
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  private readonly watches = new Map<number, RemoteWatch>();
  /** The last currentRevision call, and the batch it leaves in: calls before that batch leaves share it. */
  private revisionCall: { answer: Promise<number>; batch: number } | undefined;
  private closed = false;

  constructor(private readonly link: StoreLink) {
    link.onMessage((message) => this.receive(message));
    link.onClose(() => this.shutDown());
  }

  currentRevision(): Promise<number> {
    // A call still in the outbox leaves after every write this caller saw acknowledged, so its answer
    // serves this caller as well as its own; one already sent may predate them, so it is never reused.
    const batch = this.link.sentBatches();
    if (this.revisionCall?.batch === batch) return this.revisionCall.answer;
    const answer = this.call("currentRevision", []) as Promise<number>;
    this.revisionCall = { answer, batch };
    return answer;
  }

  get(key: string, options?: ReadOptions): Promise<KeyValue | undefined> {
    return this.call("get", options === undefined ? [key] : [key, options]) as Promise<KeyValue | undefined>;
  }

  list(prefix: string, options?: ListOptions): Promise<ListResult> {
    return this.call("list", options === undefined ? [prefix] : [prefix, options]) as Promise<ListResult>;
  }

  create(key: string, value: Uint8Array): Promise<KeyValue> {
    return this.call("create", [key, value]) as Promise<KeyValue>;
  }

  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue> {
    return this.call("update", [key, value, expectedModRevision]) as Promise<KeyValue>;
  }

  delete(key: string, options?: DeleteOptions): Promise<DeleteResult> {
    return this.call("delete", options === undefined ? [key] : [key, options]) as Promise<DeleteResult>;
  }

  async watch(prefix: string, fromRevision: number, signal?: AbortSignal): Promise<AsyncIterableIterator<WatchEvent>> {
    if (!Number.isSafeInteger(fromRevision) || fromRevision < 0)
      throw new RangeError(`invalid revision: ${fromRevision}`);
    const id = this.nextId++;
    const watch = new RemoteWatch(id, this.link, (done) => this.watches.delete(done));
    // Registered before the call goes out: events may follow the answer in the same batch.
    this.watches.set(id, watch);
    try {
      await this.call("watch", [prefix, fromRevision], id);
    } catch (error) {
      this.watches.delete(id);
      throw error;
    }
    if (signal !== undefined) watch.stopOn(signal);
    return watch;
  }

  async compact(revision: number): Promise<void> {
    await this.call("compact", [revision]);
  }

  async probe(): Promise<void> {
    await this.call("probe", []);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.shutDown();
    this.link.close();
  }

  private call(op: StoreOperation, args: unknown[], id = this.nextId++): Promise<unknown> {
    if (this.closed) return Promise.reject(new StoreClosedError());
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.link.send({ t: "call", id, op, args });
    });
  }

  private receive(message: StoreMessage): void {
    switch (message.t) {
      case "ok":
      case "err": {
        const pending = this.pending.get(message.id);
        if (pending === undefined) return;
        this.pending.delete(message.id);
        if (message.t === "ok") pending.resolve(message.value);
        else pending.reject(fromWireError(message.error));
        return;
      }
      case "event":
        this.watches.get(message.id)?.deliver(message.event);
        return;
      case "end":
        this.watches.get(message.id)?.end(message.error === undefined ? undefined : fromWireError(message.error));
        return;
    }
  }

  /** Closed here, or the owner went away: pending calls fail and watches end. */
  private shutDown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const pending of this.pending.values()) pending.reject(new StoreClosedError());
    this.pending.clear();
    for (const watch of [...this.watches.values()]) watch.end();
  }
}
