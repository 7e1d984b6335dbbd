// The controllers kapi runs inside the server, so that no controller manager is needed: each can be
// switched off (tests that want to watch raw deletion semantics turn off the garbage collector, for
// instance). Controllers never throw: failures are logged and retried with backoff until stop().

import { setMaxListeners } from "node:events";
import type { ResourceApi } from "../resources/resource-api.js";
import { ApiserverIdentityLease } from "./apiserver-identity-lease.js";
import { BootstrapSigner } from "./bootstrap-signer.js";
import { ClusterRoleAggregationController } from "./cluster-role-aggregation.js";
import { controllerEnabled, defaultControllers, knownControllers } from "./controller-selection.js";
import { DisruptionController } from "./disruption-controller.js";
import { FlowControlBootstrap } from "./flow-control-bootstrap.js";
import { GarbageCollector } from "./garbage-collector.js";
import { NamespaceController } from "./namespace-controller.js";
import { PolicyTypeCheckingController } from "./policy-type-checking.js";
import { RootCaPublisher } from "./root-ca-publisher.js";
import { ServiceAccountController } from "./service-account-controller.js";
import { type ServiceNetworkControllerOptions, startServiceNetworkControllers } from "./service-network-controllers.js";
import { SystemNamespaces } from "./system-namespaces.js";
import { ensureSystemPriorityClasses } from "./system-priority-classes.js";
import { TokenCleaner } from "./token-cleaner.js";

/**
 * Per-controller overrides: false turns one off, true on; unset leaves it to the `--controllers` list
 * (by default every controller but the bootstrap signer and the token cleaner, as in kube-controller-manager).
 */
export interface ControllerSwitches {
  /** default, kube-system, kube-public and kube-node-lease, created at start and when deleted. */
  systemNamespaces?: boolean;
  /** The PriorityClasses system-node-critical and system-cluster-critical, created at start. */
  systemPriorityClasses?: boolean;
  /** The bootstrap FlowSchemas and PriorityLevelConfigurations, ensured at start and every minute. */
  flowControlBootstrap?: boolean;
  /** kube-apiserver's identity Lease in kube-system, renewed every 10 s, and its garbage collector. */
  apiserverIdentity?: boolean;
  /** The default ServiceCIDR, the Service allocation repair and the `default/kubernetes` Service (docs/services.md). */
  serviceNetwork?: boolean;
  garbageCollector?: boolean;
  /** Namespace deletion: Terminating, content deleted, `kubernetes` finalizer removed. */
  namespaces?: boolean;
  /** The `default` ServiceAccount in each namespace. */
  serviceAccounts?: boolean;
  /** The `kube-root-ca.crt` ConfigMap in each namespace; runs only when a CA certificate is given. */
  rootCa?: boolean;
  /** The rules of ClusterRoles with an aggregationRule. */
  clusterRoleAggregation?: boolean;
  /** Signatures of bootstrap tokens in the `cluster-info` ConfigMap of kube-public. */
  bootstrapSigner?: boolean;
  /** Deletes expired bootstrap token Secrets. */
  tokenCleaner?: boolean;
  /** The status of PodDisruptionBudgets, and stale DisruptionTarget pod conditions. */
  disruption?: boolean;
  /** Type-checks ValidatingAdmissionPolicies and writes the result to their status. */
  validatingAdmissionPolicyStatus?: boolean;
}

/** kube-apiserver's own controllers: on unless switched off, whatever `--controllers` says. */
const apiserverControllers = [
  "systemNamespaces",
  "systemPriorityClasses",
  "flowControlBootstrap",
  "apiserverIdentity",
  "serviceNetwork",
] as const;

/** The kube-controller-manager name each switch answers to in `--controllers`. */
const controllerNames: Record<Exclude<keyof ControllerSwitches, (typeof apiserverControllers)[number]>, string> = {
  garbageCollector: "garbage-collector-controller",
  namespaces: "namespace-controller",
  serviceAccounts: "serviceaccount-controller",
  rootCa: "root-ca-certificate-publisher-controller",
  clusterRoleAggregation: "clusterrole-aggregation-controller",
  bootstrapSigner: "bootstrap-signer-controller",
  tokenCleaner: "token-cleaner-controller",
  disruption: "disruption-controller",
  validatingAdmissionPolicyStatus: "validatingadmissionpolicy-status-controller",
};

export interface StartControllersOptions {
  /** PEM of the CA that signed the serving certificate, published as `ca.crt`. */
  caCert?: string;
  /** The server's URL as clients reach it (the `cluster-info` kubeconfig); the bootstrap signer needs it. */
  server?: string;
  log: (message: string, error: unknown) => void;
  enabled?: ControllerSwitches;
  /** A parsed `--controllers` list (controller-selection.ts); default `*`. */
  selection?: readonly string[];
  /**
   * Receives each kube-apiserver post-start hook a controller runs, with the promise of its step being done
   * (the server shows them on its health endpoints, runtime/server/post-start-hooks.ts); without it a
   * failed step is only logged.
   */
  postStartHook?: (name: string, done: Promise<unknown>) => void;
  /** The server's service network, for its controllers; none run without it. */
  serviceNetwork?: ServiceNetworkControllerOptions;
}

export interface RunningControllers {
  /** Resolves once the system namespaces were created (or failed to be, and are retried). */
  ready: Promise<void>;
  /** Stops every controller and waits for the work under way; call it before closing the ResourceApi. */
  stop(): Promise<void>;
}

export function startControllers(api: ResourceApi, options: StartControllersOptions): RunningControllers {
  const enabled = options.enabled ?? {};
  const selection = options.selection ?? defaultControllers;
  const on = (name: keyof ControllerSwitches) => {
    const forced = enabled[name];
    if (forced !== undefined) return forced;
    if ((apiserverControllers as readonly string[]).includes(name)) return true;
    const kcmName = controllerNames[name as keyof typeof controllerNames];
    const descriptor = knownControllers.find((c) => c.name === kcmName);
    return controllerEnabled(kcmName, selection, descriptor?.disabledByDefault ?? false);
  };
  const abort = new AbortController();
  // Every controller's watches listen on this one signal.
  setMaxListeners(64, abort.signal);
  const context = { signal: abort.signal, log: options.log };
  const runs: Promise<void>[] = [];
  const start = (name: string, run: () => Promise<void>) => {
    runs.push(run().catch((error: unknown) => options.log(`${name} stopped`, error)));
  };

  const postStartHook = (hook: string, done: Promise<unknown>) => {
    if (options.postStartHook) options.postStartHook(hook, done);
    else done.catch((error: unknown) => options.log(`post-start hook ${hook} failed`, error));
  };

  let ready = Promise.resolve();
  if (on("systemNamespaces")) {
    const system = new SystemNamespaces(api, context);
    ready = system.ensure();
    postStartHook("start-system-namespaces-controller", ready);
    start("system namespaces", () => system.run());
  }
  if (on("systemPriorityClasses") && api.kinds.servesBuiltin("scheduling.k8s.io", "v1")) {
    postStartHook("scheduling/bootstrap-system-priority-classes", ensureSystemPriorityClasses(api, context));
  }
  if (on("flowControlBootstrap") && api.kinds.servesBuiltin("flowcontrol.apiserver.k8s.io", "v1")) {
    const flowControl = new FlowControlBootstrap(api, context);
    const ensured = flowControl.start();
    postStartHook("priority-and-fairness-config-producer", ensured);
    // A start that failed was logged by its hook; the server goes on without the periodic rounds.
    start("APF bootstrap ensurer", () =>
      ensured.then(
        () => flowControl.run(),
        () => undefined,
      ),
    );
  }
  if (on("apiserverIdentity") && api.kinds.servesBuiltin("coordination.k8s.io", "v1")) {
    const lease = new ApiserverIdentityLease(api, context);
    // The lease lives in kube-system: it is claimed once the system namespaces exist.
    const claimed = ready.then(() => lease.start());
    postStartHook("start-kube-apiserver-identity-lease-controller", claimed);
    start("apiserver identity lease controller", () => claimed.then(() => lease.renew()));
    postStartHook("start-kube-apiserver-identity-lease-garbage-collector", Promise.resolve());
    start("apiserver lease garbage collector", () => lease.collect());
  }
  if (on("serviceNetwork") && options.serviceNetwork !== undefined) {
    const runner = { context, namespacesReady: ready, postStartHook, start };
    startServiceNetworkControllers(api, options.serviceNetwork, runner);
  }
  if (on("garbageCollector")) {
    const gc = new GarbageCollector(api, context);
    start("garbage collector", () => gc.run());
  }
  if (on("namespaces")) {
    const namespaces = new NamespaceController(api, context);
    start("namespace controller", () => namespaces.run());
  }
  if (on("serviceAccounts")) {
    const serviceAccounts = new ServiceAccountController(api, context);
    start("service account controller", () => serviceAccounts.run());
  }
  if (on("rootCa") && options.caCert !== undefined) {
    const publisher = new RootCaPublisher(api, options.caCert, context);
    start("root CA certificate publisher", () => publisher.run());
  }

  if (on("clusterRoleAggregation")) {
    const aggregation = new ClusterRoleAggregationController(api, context);
    start("clusterrole aggregation controller", () => aggregation.run());
  }
  if (on("validatingAdmissionPolicyStatus")) {
    const typeChecking = new PolicyTypeCheckingController(api, context);
    start("validatingadmissionpolicy status controller", () => typeChecking.run());
  }
  if (on("disruption") && api.kinds.servesBuiltin("policy", "v1")) {
    const disruption = new DisruptionController(api, context);
    start("disruption controller", () => disruption.run());
  }
  if (on("tokenCleaner")) {
    const cleaner = new TokenCleaner(api, context);
    start("token cleaner", () => cleaner.run());
  }
  if (on("bootstrapSigner") && options.caCert !== undefined && options.server !== undefined) {
    const signer = new BootstrapSigner(api, { server: options.server, caCert: options.caCert }, context);
    start("bootstrap signer", () => signer.run());
  }

  return {
    ready,
    async stop() {
      abort.abort();
      await Promise.all(runs);
    },
  };
}
