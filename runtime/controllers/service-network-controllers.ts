// kube-apiserver's own controllers of the service network, each with the post-start hook it answers to:
// `start-kubernetes-service-cidr-controller` (the default ServiceCIDR and its Ready condition),
// `start-service-ip-repair-controllers` (the first repair pass of cluster IPs and node ports) and
// `bootstrap-controller` (the `default/kubernetes` Service, Endpoints and EndpointSlice, once the default
// namespace exists).
import type { ResourceApi } from "../resources/resource-api.js";
import { firstAddress, numberToIP } from "../service-network/ip-range.js";
import type { ServiceNetwork } from "../service-network/service-network.js";
import { ownAddress } from "./apiserver-addresses.js";
import type { ControllerContext } from "./controller-context.js";
import { DefaultServiceCIDRController } from "./default-service-cidr.js";
import { KubernetesServiceController } from "./kubernetes-service.js";
import { ServiceRepairLoop } from "./service-repair-loop.js";

export interface ServiceNetworkControllerOptions {
  network: ServiceNetwork;
  /** Where this server is reached: its advertise address and secure port; no kubernetes Service without it. */
  endpoint?: { advertiseAddress: string; port: number };
}

export interface ControllerRunner {
  context: ControllerContext;
  /** Resolves once the system namespaces exist. */
  namespacesReady: Promise<void>;
  postStartHook(name: string, done: Promise<unknown>): void;
  start(name: string, run: () => Promise<void>): void;
}

export function startServiceNetworkControllers(
  api: ResourceApi,
  options: ServiceNetworkControllerOptions,
  runner: ControllerRunner,
): void {
  const { network } = options;
  const { context } = runner;
  const primary = network.config.ranges[0];
  if (primary === undefined) return;
  if (api.kinds.servesBuiltin("networking.k8s.io", "v1")) {
    const cidrs = new DefaultServiceCIDRController(
      api,
      network.config.ranges.map((r) => r.cidr),
      context,
    );
    const created = cidrs.sync();
    runner.postStartHook("start-kubernetes-service-cidr-controller", created);
    start(runner, "default service CIDR controller", created, () => cidrs.run());

    const repair = new ServiceRepairLoop(api, network, context);
    const repaired = repair.runOnce();
    runner.postStartHook("start-service-ip-repair-controllers", repaired);
    start(runner, "service allocation repair", repaired, () => repair.run());
  }
  if (options.endpoint === undefined) return;
  const kubernetesService = new KubernetesServiceController(
    api,
    {
      serviceIP: numberToIP(firstAddress(primary), primary.family),
      servicePort: 443,
      publicPort: options.endpoint.port,
      addresses: ownAddress(options.endpoint.advertiseAddress),
    },
    context,
  );
  const bootstrapped = runner.namespacesReady.then(() => kubernetesService.sync());
  runner.postStartHook("bootstrap-controller", bootstrapped);
  start(runner, "kubernetes service controller", bootstrapped, () => kubernetesService.run());
}

/** The controller's loop runs after its first step, whether that step worked or not (it was reported). */
function start(runner: ControllerRunner, name: string, first: Promise<unknown>, run: () => Promise<void>): void {
  runner.start(name, () => first.then(run, run));
}
