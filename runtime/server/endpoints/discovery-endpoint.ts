// The discovery documents of what a server serves, built with the builders that wrote generated/discovery and
// kept serialized until the server's kind registry changes (a custom resource served or removed).
import {
  buildAggregatedDiscovery,
  buildApiGroup,
  buildApiGroupList,
  buildApiResourceList,
  buildApiVersions,
} from "../../discovery/build-discovery.js";
import { groupVersionPath } from "../../discovery/served.js";
import type { KindRegistry } from "../../registry/kind-registry.js";

/** Content type of aggregated discovery (apidiscovery.k8s.io/v2), asked for by Accept and echoed back. */
export const aggregatedDiscoveryType = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

export interface DiscoveryDocuments {
  /** `/api` without serverAddressByClientCIDRs, which depends on the listening address. */
  apiVersions: Record<string, unknown>;
  /** JSON text by path: `/apis`, `/apis/<group>`, `/api/<version>`, `/apis/<group>/<version>`. */
  byPath: Map<string, string>;
  /** Aggregated discovery JSON for `/api` and `/apis`. */
  aggregated: Map<string, string>;
}

const built = new WeakMap<
  KindRegistry,
  { revision: number; storageVersionHash: boolean; documents: DiscoveryDocuments }
>();

const json = (doc: unknown) => `${JSON.stringify(doc)}\n`;

/** `storageVersionHash`: the StorageVersionHash feature gate; off, resource lists carry no storageVersionHash. */
export function discoveryDocuments(kinds: KindRegistry, storageVersionHash: boolean): DiscoveryDocuments {
  const cached = built.get(kinds);
  if (cached?.revision === kinds.revision && cached.storageVersionHash === storageVersionHash) return cached.documents;
  const enabled = kinds.groupVersions();
  const byPath = new Map<string, string>([["/apis", json(buildApiGroupList(enabled))]]);
  for (const group of new Set(enabled.map((gv) => gv.group).filter((g) => g !== ""))) {
    byPath.set(`/apis/${group}`, json(buildApiGroup(group, enabled)));
  }
  for (const gv of enabled) byPath.set(groupVersionPath(gv), json(buildApiResourceList(gv, storageVersionHash)));
  const aggregated = new Map([
    ["/api", json(buildAggregatedDiscovery(enabled, true))],
    ["/apis", json(buildAggregatedDiscovery(enabled, false))],
  ]);
  const documents = { apiVersions: buildApiVersions(enabled), byPath, aggregated };
  built.set(kinds, { revision: kinds.revision, storageVersionHash, documents });
  return documents;
}

/** `/api` as kube-apiserver answers it, with the address clients reach it at. */
export function apiVersionsBody(kinds: KindRegistry, address: string): string {
  return json({
    // /api is the same whatever the storageVersionHash setting.
    ...discoveryDocuments(kinds, true).apiVersions,
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: address }],
  });
}
