// The `kapi` package entry: an in-process server for tests and embedding.

export type { AuditEvent, AuditSink } from "./audit/audit-sink.js";
export type { ResourceApi, Target } from "./resources/resource-api.js";
export type { InProcessRequest, InProcessUser } from "./server/in-process-request.js";
export type {
  InProcessServer,
  InProcessServerOptions,
  RunningServer,
  StartServerOptions,
} from "./server/start-server.js";
export { startServer } from "./server/start-server.js";
export { type WatchEvent, watchEvents } from "./server/watch-events.js";
