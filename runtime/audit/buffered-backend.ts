// kube's buffered audit backend (`--audit-<plugin>-mode=batch`): events wait in a buffer of `bufferSize`
// (a full buffer drops the event, counted as an error of plugin "buffered"), and leave in batches of at most
// `maxBatchSize`, at the latest `maxBatchWaitMs` after the first of them came, at most `throttleQPS` batches a
// second (bursts of `throttleBurst`) when throttling is on. Shutdown sends what is left.
import type { AuditBackend } from "./audit-backend.js";
import type { AuditEvent } from "./audit-sink.js";

export interface BatchConfig {
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQPS: number;
  throttleBurst: number;
  /** The webhook sends batches concurrently; the log writes them one after another. */
  asyncDelegate: boolean;
}

export function bufferedBackend(
  delegate: AuditBackend,
  config: BatchConfig,
  onDropped: (events: number) => void,
  send: (events: readonly AuditEvent[]) => Promise<unknown> = async (events) => delegate.processEvents(events),
): AuditBackend {
  const buffer: AuditEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let tokens = config.throttleBurst;
  let refilled = Date.now();
  let flushing: Promise<void> | undefined;
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

  const takeToken = async (): Promise<void> => {
    if (!config.throttleEnable) return;
    for (;;) {
      const now = Date.now();
      tokens = Math.min(config.throttleBurst, tokens + ((now - refilled) / 1000) * config.throttleQPS);
      refilled = now;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, ((1 - tokens) / config.throttleQPS) * 1000));
    }
  };

  const sendBatch = (batch: AuditEvent[]): void => {
    const sent = send(batch).catch(() => {});
    if (!config.asyncDelegate) return;
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  };

  const flush = async (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    while (buffer.length > 0) {
      await takeToken();
      const batch = buffer.splice(0, config.maxBatchSize);
      if (config.asyncDelegate) sendBatch(batch);
      else await send(batch).catch(() => {});
    }
  };

  const schedule = (): void => {
    if (flushing !== undefined) return;
    flushing = flush().finally(() => {
      flushing = undefined;
      if (buffer.length >= config.maxBatchSize) schedule();
    });
  };

  return {
    processEvents(events) {
      for (const event of events) {
        if (stopped || buffer.length >= config.bufferSize) {
          onDropped(1);
          continue;
        }
        buffer.push(event);
      }
      if (buffer.length >= config.maxBatchSize) schedule();
      else if (buffer.length > 0 && timer === undefined) {
        timer = setTimeout(schedule, config.maxBatchWaitMs);
        timer.unref();
      }
      return true;
    },
    async shutdown() {
      stopped = true;
      clearTimeout(timer);
      await flushing;
      await flush();
      await Promise.all([...inFlight]);
      await delegate.shutdown();
    },
  };
}
