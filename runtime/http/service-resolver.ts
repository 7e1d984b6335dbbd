// Where a webhook's `service` reference is reached, for admission and CRD conversion webhooks alike (kube's
// one service resolver): the Service's port (by number) names the port the endpoints serve on, and a ready
// endpoint of its EndpointSlices (kube's endpoint routing) gives the address. kapi runs no controller that
// mirrors Endpoints into EndpointSlices, so a Service whose endpoints exist only as an Endpoints object is
// resolved through that instead. The errors are kube's resolver's.
import { kinds } from "../../generated/registry.js";
import { notFound, StatusError, serviceUnavailable } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { kindReference } from "../registry/kinds.js";
import { byGroupVersionResource } from "../registry/lookup.js";
import type { ServedKind } from "../registry/served-kind.js";

export interface ServiceEndpoint {
  host: string;
  port: number;
}

/** Resolves `namespace/name:port` to an address to connect to; rejects with kube's resolver errors. */
export type ServiceEndpointResolver = (namespace: string, name: string, port: number) => Promise<ServiceEndpoint>;

/**
 * The reads the resolver makes, as ResourceApi answers them (it sits above this layer, so the resolver
 * names only what it calls).
 */
export interface ServiceObjectReader {
  get(target: { kind: ServedKind; namespace: string; name: string }): Promise<{ object: KubeObject }>;
  list(
    target: { kind: ServedKind; namespace: string },
    query: { labelSelector: string },
  ): Promise<{ items: readonly { object: KubeObject }[] }>;
}

function kindAt(group: string, version: string, resource: string): ServedKind {
  const record = byGroupVersionResource(kinds, group, version, resource);
  if (record === undefined) throw new Error(`the registry has no ${group}/${version} ${resource}`);
  return kindReference(record);
}

const services = kindAt("", "v1", "services");
const endpoints = kindAt("", "v1", "endpoints");
const endpointSlices = kindAt("discovery.k8s.io", "v1", "endpointslices");

interface ServicePort {
  name?: string;
  port?: number;
}

interface EndpointPort {
  name?: string;
  port?: number;
}

interface Slice {
  ports?: EndpointPort[] | null;
  endpoints?: { addresses?: string[]; conditions?: { ready?: boolean } }[] | null;
}

interface Subset {
  addresses?: { ip?: string }[];
  ports?: EndpointPort[];
}

const routableTypes = new Set(["ClusterIP", "LoadBalancer", "NodePort"]);

/** A random rotation of `items`, so calls spread over the ready endpoints as kube's resolver spreads them. */
function rotated<T>(items: readonly T[]): T[] {
  const offset = Math.floor(Math.random() * items.length);
  return [...items.slice(offset), ...items.slice(0, offset)];
}

function fromSlices(slices: readonly Slice[], portName: string): ServiceEndpoint | undefined {
  for (const slice of slices) {
    for (const port of slice.ports ?? []) {
      // kube skips ports without a name, and a slice's unnamed port carries "".
      if (port.name !== portName || port.port === undefined) continue;
      for (const endpoint of rotated(slice.endpoints ?? [])) {
        const address = endpoint.addresses?.[0];
        if (address !== undefined && endpoint.conditions?.ready !== false) return { host: address, port: port.port };
      }
    }
  }
  return undefined;
}

function fromEndpoints(subsets: readonly Subset[], portName: string): ServiceEndpoint | undefined {
  for (const subset of subsets) {
    for (const port of subset.ports ?? []) {
      if ((port.name ?? "") !== portName || port.port === undefined) continue;
      const address = rotated(subset.addresses ?? []).find((a) => a.ip !== undefined);
      if (address?.ip !== undefined) return { host: address.ip, port: port.port };
    }
  }
  return undefined;
}

async function getOrUndefined(api: ServiceObjectReader, kind: ServedKind, namespace: string, name: string) {
  try {
    return (await api.get({ kind, namespace, name })).object;
  } catch (error) {
    if (error instanceof StatusError && error.code === 404) return undefined;
    throw error;
  }
}

export function serviceEndpointResolver(api: ServiceObjectReader): ServiceEndpointResolver {
  return async (namespace, name, port) => {
    const service = (await getOrUndefined(api, services, namespace, name)) as
      | (KubeObject & { spec?: { type?: string; ports?: ServicePort[] } })
      | undefined;
    if (service === undefined) throw notFound({ group: "", name: "service" }, name);
    const type = service.spec?.type ?? "ClusterIP";
    if (!routableTypes.has(type)) throw new Error(`unsupported service type "${type}"`);
    const servicePort = (service.spec?.ports ?? []).find((p) => p.port === port);
    if (servicePort === undefined) {
      throw serviceUnavailable(`no service port ${port} found for service "${name}"`);
    }
    const portName = servicePort.name ?? "";
    const slices = await api.list(
      { kind: endpointSlices, namespace },
      { labelSelector: `kubernetes.io/service-name=${name}` },
    );
    if (slices.items.length > 0) {
      const found = fromSlices(
        slices.items.map((i) => i.object as Slice),
        portName,
      );
      if (found !== undefined) return found;
      throw serviceUnavailable(`no endpoints available for service "${name}"`);
    }
    const legacy = (await getOrUndefined(api, endpoints, namespace, name)) as
      | (KubeObject & { subsets?: Subset[] })
      | undefined;
    const found = legacy === undefined ? undefined : fromEndpoints(legacy.subsets ?? [], portName);
    if (found !== undefined) return found;
    throw serviceUnavailable(`no endpoints available for service "${name}"`);
  };
}
