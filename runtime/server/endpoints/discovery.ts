// The discovery documents of the group/versions served by default, built once from the generated served set
// (the same builders that wrote generated/discovery) and kept serialized.
import { servedGroupVersions } from "../../../generated/discovery/served.js";
import {
  buildAggregatedDiscovery,
  buildApiGroup,
  buildApiGroupList,
  buildApiResourceList,
  buildApiVersions,
} from "../../discovery/build-discovery.js";
import { groupVersionPath } from "../../discovery/served.js";

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

let documents: DiscoveryDocuments | undefined;

const json = (doc: unknown) => `${JSON.stringify(doc)}\n`;

export function discoveryDocuments(): DiscoveryDocuments {
  if (documents) return documents;
  const enabled = servedGroupVersions.filter((gv) => gv.enabledByDefault);
  const byPath = new Map<string, string>([["/apis", json(buildApiGroupList(enabled))]]);
  for (const group of new Set(enabled.map((gv) => gv.group).filter((g) => g !== ""))) {
    byPath.set(`/apis/${group}`, json(buildApiGroup(group, enabled)));
  }
  for (const gv of enabled) byPath.set(groupVersionPath(gv), json(buildApiResourceList(gv)));
  const aggregated = new Map([
    ["/api", json(buildAggregatedDiscovery(enabled, true))],
    ["/apis", json(buildAggregatedDiscovery(enabled, false))],
  ]);
  documents = { apiVersions: buildApiVersions(enabled), byPath, aggregated };
  return documents;
}

/** `/api` as kube-apiserver answers it, with the address clients reach it at. */
export function apiVersionsBody(address: string): string {
  return json({
    ...discoveryDocuments().apiVersions,
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: address }],
  });
}
