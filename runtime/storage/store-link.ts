// The channel between a RemoteStore and the store server that owns the real Store: ordered, message-based,
// carrying structured-clone values (Uint8Array included). Messages sent in one event-loop turn leave together
// as one batch, so a busy link pays one serialisation and one write per turn rather than one per call; the
// batch keeps their order, which the consistency of remote watches relies on (docs/workers.md).
import type { MessagePort } from "node:worker_threads";
import type { KeyValue, WatchEvent } from "./store.js";

/** A storage failure as it crosses the link: the error's class name and the fields that rebuild it. */
export interface WireError {
  name: string;
  message: string;
  key?: string;
  current?: KeyValue;
  expectedModRevision?: number;
  compactRevision?: number;
  requestedRevision?: number;
  currentRevision?: number;
}

export type StoreOperation =
  | "currentRevision"
  | "get"
  | "list"
  | "create"
  | "update"
  | "delete"
  | "watch"
  | "compact"
  | "probe";

export type StoreMessage =
  /** A call; a `watch` call's id names the watch from then on. */
  | { t: "call"; id: number; op: StoreOperation; args: unknown[] }
  | { t: "ok"; id: number; value: unknown }
  | { t: "err"; id: number; error: WireError }
  /** The consumer of watch `id` takes `n` more events. */
  | { t: "pull"; id: number; n: number }
  /** Watch `id` is no longer wanted. */
  | { t: "stop"; id: number }
  | { t: "event"; id: number; event: WatchEvent }
  /** Watch `id` ended: the store closed, or (with `error`) the watch failed. */
  | { t: "end"; id: number; error?: WireError };

/** One end of a link. */
export interface StoreLink {
  send(message: StoreMessage): void;
  /** Counts the batches sent so far: a message sent now leaves in batch number `sentBatches()`. */
  sentBatches(): number;
  /** Called for every message from the other end, in order. */
  onMessage(listener: (message: StoreMessage) => void): void;
  /** Called once when the other end is gone (its process exited, the port closed). */
  onClose(listener: () => void): void;
  /** Detaches this end; the channel underneath stays the caller's (a process keeps its IPC channel). */
  close(): void;
}

/** Collects messages and hands each turn's batch to `write`. */
class Outbox {
  private pending: StoreMessage[] = [];
  private scheduled = false;
  sent = 0;

  constructor(private readonly write: (batch: StoreMessage[]) => void) {}

  push(message: StoreMessage): void {
    this.pending.push(message);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.sent++;
    this.write(batch);
  }
}

/** The part of a process (`process`, a ChildProcess, a cluster Worker) a link uses: its IPC channel. */
export interface IpcEndpoint {
  send?(message: unknown, callback: (error: Error | null) => void): unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
  on(event: "disconnect", listener: () => void): unknown;
  off(event: "message", listener: (message: unknown) => void): unknown;
  off(event: "disconnect", listener: () => void): unknown;
}

/** The batches of a link share the channel with other messages: this marks them. */
const batchTag = "kapi-store";

interface WireBatch {
  tag: typeof batchTag;
  messages: StoreMessage[];
}

function isBatch(message: unknown): message is WireBatch {
  return typeof message === "object" && message !== null && (message as { tag?: unknown }).tag === batchTag;
}

/** What both kinds of link share: the outbox, the listeners and the closed flag around a channel. */
interface LinkCore {
  link: StoreLink;
  /** Hands messages that arrived to the listener, in order. */
  receive(messages: readonly StoreMessage[]): void;
  /** The channel is gone: the close listeners run, once. */
  disconnected(): void;
}

function linkCore(post: (messages: StoreMessage[]) => void, detach: () => void): LinkCore {
  let closed = false;
  const closeListeners: (() => void)[] = [];
  let messageListener: ((message: StoreMessage) => void) | undefined;
  const outbox = new Outbox((messages) => {
    if (!closed) post(messages);
  });
  return {
    receive(messages) {
      for (const m of messages) messageListener?.(m);
    },
    disconnected() {
      if (closed) return;
      closed = true;
      for (const listener of closeListeners) listener();
    },
    link: {
      send(message) {
        if (!closed) outbox.push(message);
      },
      sentBatches: () => outbox.sent,
      onMessage(listener) {
        messageListener = listener;
      },
      onClose(listener) {
        closeListeners.push(listener);
      },
      close() {
        outbox.flush();
        closed = true;
        detach();
      },
    },
  };
}

/**
 * A link over a process's IPC channel. The channel should use `serialization: "advanced"`, so values pass
 * as bytes; with JSON serialization Uint8Array values would not survive.
 */
export function ipcLink(endpoint: IpcEndpoint): StoreLink {
  const onMessage = (message: unknown) => {
    if (isBatch(message)) core.receive(message.messages);
  };
  const onDisconnect = () => core.disconnected();
  const core = linkCore(
    (messages) => {
      // A failed send means the other end is gone: `disconnect` follows and ends what waits on it. With the
      // callback the failure comes here rather than as an 'error' event that would end the process.
      endpoint.send?.({ tag: batchTag, messages } satisfies WireBatch, () => {});
    },
    () => {
      endpoint.off("message", onMessage);
      endpoint.off("disconnect", onDisconnect);
    },
  );
  endpoint.on("message", onMessage);
  endpoint.on("disconnect", onDisconnect);
  return core.link;
}

/** A link over a MessagePort (a worker thread, or a MessageChannel in one thread). */
export function portLink(port: MessagePort): StoreLink {
  const core = linkCore(
    (messages) => port.postMessage(messages),
    () => port.close(),
  );
  port.on("message", (messages: StoreMessage[]) => core.receive(messages));
  port.on("close", () => core.disconnected());
  return core.link;
}
