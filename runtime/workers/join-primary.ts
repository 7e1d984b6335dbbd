// The worker side of `kapi serve --workers N`: waits for the primary's setup, serves from a RemoteStore over
// the process's IPC channel, and tells the primary once its server is ready.
import { RemoteStore } from "../storage/remote-store.js";
import { ipcLink } from "../storage/store-link.js";
import { isSetup, joinMessage, readyMessage, type WorkerSetup } from "./worker-messages.js";

export interface PrimaryConnection {
  setup: WorkerSetup;
  /** The primary's Store; its calls fail with StoreClosedError once the primary is gone. */
  store: RemoteStore;
  /** Tells the primary this worker serves. */
  ready(): void;
}

/** Only in a worker process: the primary's setup message and its Store. */
export function joinPrimary(): Promise<PrimaryConnection> {
  const store = new RemoteStore(ipcLink(process));
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (!isSetup(message)) return;
      process.off("message", onMessage);
      resolve({ setup: message, store, ready: () => process.send?.(readyMessage, () => {}) });
    };
    process.on("message", onMessage);
    process.send?.(joinMessage, () => {});
  });
}
