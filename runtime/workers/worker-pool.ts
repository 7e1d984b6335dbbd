// The primary of `kapi serve --workers N`: forks N worker processes with node:cluster, which share the
// listening port (the primary accepts and hands connections round-robin), serves each one the primary's
// Store over its IPC channel, and forks a replacement when one exits. Workers get what all of them must share
// (the admin token) in a setup message, then answer "ready" once their server serves (docs/workers.md).
import cluster, { type Worker } from "node:cluster";
import type { Store } from "../storage/store.js";
import { ipcLink } from "../storage/store-link.js";
import { serveStore } from "../storage/store-server.js";
import { isJoin, isReady, type WorkerSetup, workerSetupTag } from "./worker-messages.js";

export interface WorkerPoolOptions {
  count: number;
  store: Store;
  setup: Omit<WorkerSetup, "tag">;
  /** Where a worker's unexpected exit is reported. */
  log: (message: string) => void;
}

export class WorkerPool {
  private readonly workers = new Set<Worker>();
  private closing = false;

  private constructor(private readonly options: WorkerPoolOptions) {}

  /** Forks the workers and resolves once each serves; rejects if one exits before it does. */
  static async start(options: WorkerPoolOptions): Promise<WorkerPool> {
    // Store values are bytes: the advanced serialization passes them as they are.
    cluster.setupPrimary({ serialization: "advanced" });
    const pool = new WorkerPool(options);
    try {
      await Promise.all(Array.from({ length: options.count }, () => pool.fork()));
    } catch (error) {
      await pool.close();
      throw error;
    }
    cluster.on("exit", (worker, code, signal) => pool.replace(worker, code, signal));
    return pool;
  }

  /** The workers' process ids, in no particular order. */
  pids(): number[] {
    return [...this.workers].flatMap((w) => (w.process.pid === undefined ? [] : [w.process.pid]));
  }

  /** Stops every worker (each answers its requests in flight, as on SIGTERM) and waits for them to exit. */
  async close(): Promise<void> {
    this.closing = true;
    const exits = [...this.workers].map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) resolve();
          else {
            worker.once("exit", () => resolve());
            worker.process.kill("SIGTERM");
          }
        }),
    );
    await Promise.all(exits);
  }

  private fork(): Promise<Worker> {
    const worker = cluster.fork();
    this.workers.add(worker);
    serveStore(this.options.store, ipcLink(worker));
    return new Promise((resolve, reject) => {
      const onMessage = (message: unknown) => {
        // A worker that died meanwhile fails the send; its exit is handled below.
        if (isJoin(message))
          worker.send({ tag: workerSetupTag, ...this.options.setup } satisfies WorkerSetup, () => {});
        if (!isReady(message)) return;
        worker.off("message", onMessage);
        worker.off("exit", onExit);
        resolve(worker);
      };
      const onExit = (code: number | null, signal: string | null) => {
        worker.off("message", onMessage);
        reject(new Error(`worker ${worker.id} exited before serving (${signal ?? `code ${code}`})`));
      };
      worker.on("message", onMessage);
      worker.once("exit", onExit);
    });
  }

  private replace(worker: Worker, code: number, signal: string | null): void {
    if (!this.workers.delete(worker) || this.closing) return;
    this.options.log(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
    this.fork().catch((error: unknown) =>
      this.options.log(`a replacement worker failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}
