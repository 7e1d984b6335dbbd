import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import { afterAll } from "vitest";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { RemoteStore } from "../../../runtime/storage/remote-store.js";
import { SqliteStore } from "../../../runtime/storage/sqlite-store.js";
import type { Store } from "../../../runtime/storage/store.js";
import { portLink } from "../../../runtime/storage/store-link.js";
import { serveStore } from "../../../runtime/storage/store-server.js";
import { runStorageSuite } from "./conformance.js";

// Over a MessageChannel every message is structured-cloned and delivered in a later turn, as over a
// process's IPC channel with advanced serialization; the link's framing is the same.
/** Closing the remote end closes the port, and the owner with it: the suite's stores are its alone. */
function remote(owned: Store): { store: RemoteStore; ownerClosed: Promise<void> } {
  const { port1, port2 } = new MessageChannel();
  const link = portLink(port2);
  serveStore(owned, link);
  const ownerClosed = new Promise<void>((resolve) => link.onClose(() => resolve(owned.close())));
  return { store: new RemoteStore(portLink(port1)), ownerClosed };
}

runStorageSuite("remote memory store", async (options) => remote(new MemoryStore(options)).store);

const dir = mkdtempSync(join(tmpdir(), "kapi-remote-storage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const owners = new WeakMap<Store, { path: string; ownerClosed: Promise<void> }>();

function remoteSqlite(path: string, options?: Parameters<typeof SqliteStore.open>[1]): Store {
  const { store, ownerClosed } = remote(SqliteStore.open(path, options));
  owners.set(store, { path, ownerClosed });
  return store;
}

runStorageSuite(
  "remote sqlite store",
  async (options) => remoteSqlite(join(dir, `store-${files++}.db`), options),
  async (store) => {
    const { path, ownerClosed } = owners.get(store) as { path: string; ownerClosed: Promise<void> };
    await store.close();
    await ownerClosed;
    return remoteSqlite(path);
  },
);
