// The per-component defaults kube's SetDefaults functions give the shared component-base blocks field by
// field, so a partly written block is completed too (a schema default only fills an absent block): the
// client's qps and burst, and the leader election lock's name and namespace.
import { asObject } from "../validation/walk.js";

type Json = Record<string, unknown>;

/** The block at `key` of `owner`, created empty when absent (kube's blocks are structs, never nil). */
export function block(owner: Json, key: string): Json {
  const existing = asObject(owner[key]);
  if (existing !== undefined) return existing;
  const created: Json = {};
  owner[key] = created;
  return created;
}

/** A zero qps or burst (absent included) takes the component's value, as each component's defaulter does. */
export function defaultClientConnection(connection: Json, qps: number, burst: number): void {
  if (connection.qps === undefined || connection.qps === 0) connection.qps = qps;
  if (connection.burst === undefined || connection.burst === 0) connection.burst = burst;
}

/** An empty lock name or namespace takes the component's. */
export function defaultLeaderElectionLock(election: Json, name: string, namespace: string): void {
  if (election.resourceNamespace === undefined || election.resourceNamespace === "") {
    election.resourceNamespace = namespace;
  }
  if (election.resourceName === undefined || election.resourceName === "") election.resourceName = name;
}
