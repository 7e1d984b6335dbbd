// `kapi serve --workers N`'s two roles. The primary owns the Store, runs a server without a listener that
// alone runs the controllers and the bootstrap writes, and forks the workers; each worker runs a full server
// on the shared port whose Store is the primary's, reached over IPC (docs/workers.md).
import { createServer } from "node:net";
import { type RunningServer, type StartServerOptions, startServer } from "../server/start-server.js";
import type { Store } from "../storage/store.js";
import { joinPrimary } from "./join-primary.js";
import { WorkerPool } from "./worker-pool.js";

/** A port the workers can share: the one asked for, or a free one picked now when it is 0. */
async function sharedPort(host: string, port: number): Promise<number> {
  if (port !== 0) return port;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, host, () => resolve());
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port for the workers");
  return address.port;
}

/** The URL clients reach the workers at, as a listener on `host` would name itself. */
function workersUrl(host: string, port: number, tls: boolean): string {
  // A wildcard address is not one a client can dial; the certificate names 127.0.0.1.
  const reachable = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const hostPart = reachable.includes(":") ? `[${reachable}]` : reachable;
  return `${tls ? "https" : "http"}://${hostPart}:${port}`;
}

export interface PrimaryOptions {
  workers: number;
  store: Store;
  /** The options of every server; `host` and `port` are the workers' shared listener. */
  server: StartServerOptions;
}

/** The primary: its own server (no listener) started on the store, then the workers. */
export async function startPrimary(options: PrimaryOptions): Promise<{ server: RunningServer; pool: WorkerPool }> {
  const host = options.server.host ?? "127.0.0.1";
  const port = await sharedPort(host, options.server.port ?? 0);
  const servedUrl = workersUrl(host, port, options.server.insecure !== true);
  const server = (await startServer({
    ...options.server,
    store: options.store,
    listen: false,
    servedUrl,
  })) as RunningServer;
  let pool: WorkerPool;
  try {
    pool = await WorkerPool.start({
      count: options.workers,
      store: options.store,
      setup: { adminToken: server.adminToken },
      log: (message) => console.error(`kapi: ${message}`),
    });
  } catch (error) {
    await server.close();
    throw error;
  }
  const closeServer = server.close;
  // The workers go first: they answer their requests in flight on the store, which closes after them.
  server.close = async () => {
    await pool.close();
    await closeServer();
  };
  return { server, pool };
}

/** A worker: a full server on the shared port whose store is the primary's. */
export async function startWorker(options: StartServerOptions): Promise<RunningServer> {
  const primary = await joinPrimary();
  const server = await startServer({
    ...options,
    store: primary.store,
    adminToken: primary.setup.adminToken,
    follower: true,
  });
  // Without the primary there is no store: the worker ends, and its clients reconnect to another.
  process.once("disconnect", () => {
    void server.close().finally(() => process.exit(1));
  });
  primary.ready();
  return server;
}
