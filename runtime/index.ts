// The `kapi` package entry: an in-process server for tests and embedding.

export type { AuditEvent, AuditSink } from "./server/audit-event.js";
export type { RunningServer, StartServerOptions } from "./server/start-server.js";
export { startServer } from "./server/start-server.js";
