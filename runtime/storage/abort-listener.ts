// A store watch ends when its caller's signal aborts; the listener must go when the watch ends first, or a
// long-lived signal would keep every finished watch reachable.

/** Calls `stop` when `signal` aborts (at once if it has); returns what removes the listener. */
export function stopOnAbort(signal: AbortSignal, stop: () => void): () => void {
  if (signal.aborted) {
    stop();
    return () => {};
  }
  signal.addEventListener("abort", stop, { once: true });
  return () => signal.removeEventListener("abort", stop);
}
