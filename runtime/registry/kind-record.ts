// The shape of generated/registry.ts: one record per kind of every group/version. The runtime owns it so the
// generated table is checked against what the runtime reads.
import type { Strategy } from "../strategies/strategy.js";

export type Stability = "alpha" | "beta" | "stable";
export type Scope = "Namespaced" | "Cluster";
export type NameFormat = "dns-subdomain" | "dns-label" | "dns-1035-label" | "path-segment";
export type Verb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection" | "proxy";

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface Lifecycle {
  introduced?: string;
  deprecated?: string;
  removed?: string;
  replacement?: string;
}

export interface SubresourceRecord {
  name: string;
  verbs: readonly Verb[];
  /** The kind served at the subresource when it is not the parent kind (scale → autoscaling/v1 Scale). */
  kind?: GroupVersionKind;
  /** Where a scale subresource reads and writes replicas in the parent object. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** Served only by the strategy hook of this name (pods/log, namespaces/finalize, …). */
  hook?: string;
}

export interface PrinterColumn {
  name: string;
  type: "string" | "integer" | "number" | "boolean" | "date";
  format?: string;
  jsonPath: string;
  priority?: number;
  description?: string;
}

export interface ResourceRecord {
  plural: string;
  singular: string;
  scope: Scope;
  nameFormat: NameFormat;
  verbs: readonly Verb[];
  shortNames: readonly string[];
  categories: readonly string[];
  subresources: readonly SubresourceRecord[];
  /** Objects of this resource are stored in this version. */
  storageVersion: boolean;
  /** Objects live in another resource's storage (events.k8s.io events are core events). */
  storedAs?: { group: string; resource: string };
  /** Nothing is stored: the server computes every answer. */
  virtual: boolean;
  printerColumns: readonly PrinterColumn[];
  /** Field paths beyond metadata.name and metadata.namespace usable in field selectors. */
  selectableFields: readonly string[];
}

export interface KindRecord {
  group: string;
  version: string;
  kind: string;
  listKind?: string;
  stability: Stability;
  enabledByDefault: boolean;
  /** Discovery order of the group (lower first) and of this version within it (lower preferred). */
  priority?: { group: number; version: number };
  lifecycle?: Lifecycle;
  /** Absent for kinds that are not served (options, review payloads, shared meta kinds). */
  resource?: ResourceRecord;
  strategy?: Strategy;
}
