// kube's truncating audit backend (`--audit-<plugin>-truncate-enabled`): an event at the Request level or above
// larger than `maxEventSize` bytes loses its request and response objects (annotated
// `audit.k8s.io/truncated: "true"`); one still too large is dropped (an error of plugin "truncate"). Events go on
// in batches of at most `maxBatchSize` bytes.
import type { AuditBackend } from "./audit-backend.js";
import { levelAtLeast } from "./audit-policy.js";
import type { AuditEvent } from "./audit-sink.js";

export interface TruncateConfig {
  maxEventSize: number;
  maxBatchSize: number;
}

const size = (event: AuditEvent) => Buffer.byteLength(JSON.stringify(event));

function truncated(event: AuditEvent): AuditEvent {
  const { requestObject: _request, responseObject: _response, ...rest } = event;
  return { ...rest, annotations: { ...(event.annotations ?? {}), "audit.k8s.io/truncated": "true" } };
}

export function truncateBackend(
  delegate: AuditBackend,
  config: TruncateConfig,
  onDropped: (events: number) => void,
): AuditBackend {
  return {
    processEvents(events) {
      let ok = true;
      let batch: AuditEvent[] = [];
      let batchSize = 0;
      let dropped = 0;
      for (let event of events) {
        let bytes = size(event);
        if (bytes > config.maxEventSize && levelAtLeast(event.level, "Request")) {
          event = truncated(event);
          bytes = size(event);
        }
        if (bytes > config.maxEventSize) {
          dropped++;
          continue;
        }
        if (batch.length > 0 && batchSize + bytes > config.maxBatchSize) {
          ok = delegate.processEvents(batch) && ok;
          batch = [];
          batchSize = 0;
        }
        batchSize += bytes;
        batch.push(event);
      }
      if (batch.length > 0) ok = delegate.processEvents(batch) && ok;
      if (dropped > 0) onDropped(dropped);
      return ok;
    },
    shutdown: () => delegate.shutdown(),
  };
}
