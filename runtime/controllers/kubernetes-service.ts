// kube-apiserver's kubernetes Service controller (pkg/controlplane/controller/kubernetesservice, post-start
// hook `bootstrap-controller`) with its endpoint reconciler (pkg/controlplane/reconcilers): the Service
// `default/kubernetes` (the first address of the primary service range, port 443 `https` to the secure
// port), and its Endpoints and EndpointSlice listing the live apiservers. Each is created when missing and
// put back when changed, on every change seen and every 10 s (kube's EndpointInterval).
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { endpointSlices, endpoints, services } from "../service-network/network-kinds.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import { statusCode } from "./api-errors.js";
import type { ApiServerAddresses } from "./apiserver-addresses.js";
import { apiserverOwner, pause } from "./apiserver-kinds.js";
import type { ControllerContext } from "./controller-context.js";
import { followObjects } from "./follow-objects.js";
import { WorkQueue } from "./work-queue.js";

export const kubernetesServiceName = "kubernetes";
const defaultNamespace = "default";
const portName = "https";
const endpointIntervalMs = 10_000;
const skipMirrorLabel = "endpointslice.kubernetes.io/skip-mirror";
const serviceNameLabel = "kubernetes.io/service-name";

export interface KubernetesServiceOptions {
  /** The first address of the primary service range. */
  serviceIP: string;
  /** The Service's port: 443. */
  servicePort: number;
  /** The port clients reach the apiservers on: the secure port. */
  publicPort: number;
  addresses: ApiServerAddresses;
}

function servicePorts(options: KubernetesServiceOptions): JsonObject[] {
  return [{ name: portName, protocol: "TCP", port: options.servicePort, targetPort: options.publicPort }];
}

function endpointPorts(options: KubernetesServiceOptions): JsonObject[] {
  return [{ name: portName, port: options.publicPort, protocol: "TCP" }];
}

function labelsOf(obj: KubeObject): Record<string, unknown> {
  return asObject(asObject(obj.metadata)?.labels) ?? {};
}

/** A Service port as Go compares ServicePort structs: unset fields are their zero values. */
function comparablePort(port: unknown): JsonObject {
  const p = asObject(port) ?? {};
  return {
    name: p.name ?? "",
    protocol: p.protocol ?? "",
    appProtocol: p.appProtocol ?? null,
    port: p.port ?? 0,
    targetPort: p.targetPort ?? 0,
    nodePort: p.nodePort ?? 0,
  };
}

export class KubernetesServiceController {
  private readonly queue: WorkQueue<string>;

  constructor(
    private readonly api: ResourceApi,
    private readonly options: KubernetesServiceOptions,
    private readonly context: ControllerContext,
  ) {
    this.queue = new WorkQueue(
      async () => {
        await this.sync();
        return undefined;
      },
      { name: "kubernetes service controller", log: context.log },
    );
  }

  /** One pass: the Service, then its Endpoints and EndpointSlice. */
  async sync(): Promise<void> {
    await this.#ensureService();
    await this.#reconcileEndpoints();
  }

  async run(): Promise<void> {
    const { signal } = this.context;
    const follow = { ...this.context, name: "kubernetes service controller" };
    const query = { fieldSelector: `metadata.name=${kubernetesServiceName}` };
    const enqueue = () => this.queue.add(kubernetesServiceName);
    const tick = async () => {
      while (!signal.aborted) {
        await pause(endpointIntervalMs, signal);
        if (!signal.aborted) enqueue();
      }
    };
    await Promise.all([
      ...[services, endpoints, endpointSlices].map((kind) =>
        followObjects(this.api, { kind, namespace: defaultNamespace }, enqueue, { ...follow, query }),
      ),
      tick(),
    ]);
    await this.queue.stop();
  }

  async #get(kind: typeof services): Promise<KubeObject | undefined> {
    try {
      return (await this.api.get({ kind, namespace: defaultNamespace, name: kubernetesServiceName })).object;
    } catch (error) {
      if (statusCode(error) === 404) return undefined;
      throw error;
    }
  }

  /** kube's CreateOrUpdateMasterServiceIfNeeded: ports and type put back, nothing else touched. */
  async #ensureService(): Promise<void> {
    const target = { kind: services, namespace: defaultNamespace, name: kubernetesServiceName };
    const wanted = servicePorts(this.options);
    const current = await this.#get(services);
    if (current !== undefined) {
      const spec = asObject(current.spec) ?? {};
      const ports = listItems(spec.ports).map(comparablePort);
      if (spec.type === "ClusterIP" && isDeepStrictEqual(ports, wanted.map(comparablePort))) return;
      const fixed = structuredClone(current);
      fixed.spec = { ...spec, ports: wanted, type: "ClusterIP" };
      await this.api.update(target, fixed, { owner: apiserverOwner });
      return;
    }
    try {
      await this.api.create(
        target,
        {
          apiVersion: "v1",
          kind: "Service",
          metadata: {
            name: kubernetesServiceName,
            namespace: defaultNamespace,
            labels: { provider: "kubernetes", component: "apiserver" },
          },
          spec: {
            ports: wanted,
            clusterIP: this.options.serviceIP,
            ipFamilyPolicy: "SingleStack",
            sessionAffinity: "None",
            type: "ClusterIP",
          },
        },
        { owner: apiserverOwner },
      );
    } catch (error) {
      if (statusCode(error) !== 409) throw error;
    }
  }

  /** kube's lease reconciler: one subset of the live addresses and the https port, mirrored to the slice. */
  async #reconcileEndpoints(): Promise<void> {
    const addresses = [...(await this.options.addresses.current())].sort();
    const subsets = [{ addresses: addresses.map((ip) => ({ ip })), ports: endpointPorts(this.options) }];
    const target = { kind: endpoints, namespace: defaultNamespace, name: kubernetesServiceName };
    const current = await this.#get(endpoints);
    if (current === undefined) {
      await this.api.create(
        target,
        {
          apiVersion: "v1",
          kind: "Endpoints",
          metadata: {
            name: kubernetesServiceName,
            namespace: defaultNamespace,
            labels: { [skipMirrorLabel]: "true" },
          },
          subsets,
        },
        { owner: apiserverOwner },
      );
    } else if (!isDeepStrictEqual(current.subsets, subsets) || labelsOf(current)[skipMirrorLabel] !== "true") {
      const fixed = structuredClone(current);
      const meta = asObject(fixed.metadata) ?? {};
      meta.labels = { ...labelsOf(current), [skipMirrorLabel]: "true" };
      fixed.subsets = subsets;
      await this.api.update(target, fixed, { owner: apiserverOwner });
    }
    await this.#ensureSlice(addresses);
  }

  /** kube's EnsureEndpointSliceFromEndpoints. */
  async #ensureSlice(addresses: string[]): Promise<void> {
    const target = { kind: endpointSlices, namespace: defaultNamespace, name: kubernetesServiceName };
    const addressType = addresses.length > 0 && addresses.every((ip) => ip.includes(":")) ? "IPv6" : "IPv4";
    const wanted = {
      endpoints: addresses
        .filter((ip) => ip.includes(":") === (addressType === "IPv6"))
        .map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
      ports: endpointPorts(this.options),
      labels: { [serviceNameLabel]: kubernetesServiceName },
    };
    const slice: KubeObject = {
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      metadata: { name: kubernetesServiceName, namespace: defaultNamespace, labels: wanted.labels },
      addressType,
      endpoints: wanted.endpoints,
      ports: wanted.ports,
    };
    const current = await this.#get(endpointSlices);
    if (current === undefined) {
      try {
        await this.api.create(target, slice, { owner: apiserverOwner });
      } catch (error) {
        if (statusCode(error) !== 409) throw error;
      }
      return;
    }
    if (current.addressType !== addressType) {
      await this.api.delete(target);
      await this.api.create(target, slice, { owner: apiserverOwner });
      return;
    }
    const same =
      isDeepStrictEqual(current.endpoints ?? [], wanted.endpoints) &&
      isDeepStrictEqual(current.ports ?? [], wanted.ports) &&
      isDeepStrictEqual(labelsOf(current), wanted.labels);
    if (same) return;
    // kube's adapter writes the slice it built, unconditionally.
    await this.api.update(target, slice, { owner: apiserverOwner });
  }
}
