// What a server audits with: the policy, the backend the events go to, and the audit metrics; made from
// startServer's `audit` option (a test's sink, a policy, or kube-apiserver's audit flags).
import type { MetricRegistry } from "../metrics/metric-registry.js";
import { type AuditBackend, sinkBackend, unionBackend } from "./audit-backend.js";
import { type AuditFlags, createAuditSetup } from "./audit-flags.js";
import { AuditMetrics } from "./audit-metrics.js";
import type { Policy } from "./audit-policy.js";
import type { AuditSink } from "./audit-sink.js";

export interface ServerAudit {
  policy: Policy;
  backend: AuditBackend;
  metrics?: AuditMetrics;
}

/**
 * startServer's `audit`: a sink alone receives every request at the Metadata level; `policy` (an
 * audit.k8s.io/v1 Policy, default that one rule) chooses; `flags` are kube-apiserver's audit flags.
 */
export type AuditOption = AuditSink | { policy?: Policy; sink?: AuditSink; flags?: AuditFlags };

const everythingAtMetadata: Policy = { rules: [{ level: "Metadata" }] };

export function createServerAudit(
  option: AuditOption | undefined,
  registry: MetricRegistry,
  warn: (message: string) => void,
): ServerAudit | undefined {
  if (option === undefined) return undefined;
  const metrics = new AuditMetrics(registry);
  if (typeof option === "function") return { policy: everythingAtMetadata, backend: sinkBackend(option), metrics };
  const fromFlags = option.flags === undefined ? undefined : createAuditSetup(option.flags, metrics, warn);
  const backends = [
    ...(fromFlags === undefined ? [] : [fromFlags.backend]),
    ...(option.sink === undefined ? [] : [sinkBackend(option.sink)]),
  ];
  const backend = unionBackend(backends);
  if (backend === undefined) return undefined;
  const policy = option.policy ?? fromFlags?.policy ?? (option.flags === undefined ? everythingAtMetadata : undefined);
  return policy === undefined ? undefined : { policy, backend, metrics };
}
