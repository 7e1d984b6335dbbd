// The messages between the primary of `kapi serve --workers N` and its workers, besides the store link's.

export const workerSetupTag = "kapi-worker-setup";
const joinTag = "kapi-worker-join";
const readyTag = "kapi-worker-ready";

/**
 * The worker asks for its setup once it listens for it: a message that arrives with no listener is dropped,
 * and a new worker takes a while to load.
 */
export const joinMessage = { tag: joinTag } as const;

export function isJoin(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as { tag?: unknown }).tag === joinTag;
}

/** What every worker must share with the others and the primary, sent once after the fork. */
export interface WorkerSetup {
  tag: typeof workerSetupTag;
  adminToken: string;
}

export function isSetup(message: unknown): message is WorkerSetup {
  return typeof message === "object" && message !== null && (message as { tag?: unknown }).tag === workerSetupTag;
}

/** The worker's server is serving. */
export const readyMessage = { tag: readyTag } as const;

export function isReady(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as { tag?: unknown }).tag === readyTag;
}
