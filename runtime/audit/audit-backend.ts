// kube's audit.Backend: takes events (true when they were all handled), and on shutdown writes out what it
// still holds. The modes of `--audit-<plugin>-mode` wrap a backend: blocking ignores its failures,
// blocking-strict reports them (the request then fails at RequestReceived), batch buffers (buffered-backend.ts).
import type { AuditEvent, AuditSink } from "./audit-sink.js";

export interface AuditBackend {
  processEvents(events: readonly AuditEvent[]): boolean;
  shutdown(): Promise<void>;
}

/** A test's sink as a backend: every event handed over, nothing held. */
export function sinkBackend(sink: AuditSink): AuditBackend {
  return {
    processEvents(events) {
      for (const event of events) sink(event);
      return true;
    },
    shutdown: async () => {},
  };
}

/** kube's ignoreErrorsBackend (blocking mode): failures are counted by the backend, never fail the request. */
export function ignoreErrors(backend: AuditBackend): AuditBackend {
  return {
    processEvents(events) {
      backend.processEvents(events);
      return true;
    },
    shutdown: () => backend.shutdown(),
  };
}

/** Every backend gets every event (kube's union backend). */
export function unionBackend(backends: readonly AuditBackend[]): AuditBackend | undefined {
  if (backends.length === 0) return undefined;
  if (backends.length === 1) return backends[0];
  return {
    processEvents(events) {
      let ok = true;
      for (const backend of backends) ok = backend.processEvents(events) && ok;
      return ok;
    },
    shutdown: async () => {
      await Promise.all(backends.map((backend) => backend.shutdown()));
    },
  };
}
