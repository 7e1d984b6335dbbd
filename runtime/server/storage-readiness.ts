// kube-apiserver's storage-readiness post-start hook (WatchCacheInitializationPostStartHook): the server is
// ready once its watch caches have initialised (listed their objects and follow the store). kube starts a
// cacher for every resource; kapi opens a resource's cache on first use (most are never read), so the hook
// waits for the caches the boot sequence opened — the controllers' and the authorizers' — and no others.
// As kube's hook, it gives up waiting after the storage initialisation timeout (a minute) and counts as done.
import type { ResourceApi } from "../resources/resource-api.js";

const storageInitializationTimeoutMs = 60_000;

/** Resolves once `booted` has settled and every watch cache opened by then serves, or the timeout has passed. */
export async function storageReadiness(
  resources: ResourceApi,
  booted: Promise<unknown>,
  timeoutMs = storageInitializationTimeoutMs,
): Promise<void> {
  const opened = booted.then(
    () => Promise.allSettled(resources.context.openedCaches()),
    () => undefined,
  );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    timer.unref();
  });
  await Promise.race([opened, timeout]);
  clearTimeout(timer);
}
