// Starts a bench worker thread from its .ts file: a worker cannot load TypeScript itself, so a small
// bootstrap registers tsx in the thread first.
import { Worker } from "node:worker_threads";

export function startTsWorker(entry: URL, workerData: unknown): Worker {
  const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/** The next message the worker posts, or its error. */
export function nextMessage<T>(worker: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: T) => {
      worker.off("error", onError);
      resolve(message);
    };
    const onError = (error: Error) => {
      worker.off("message", onMessage);
      reject(error);
    };
    worker.once("message", onMessage);
    worker.once("error", onError);
  });
}
