// The controllers kapi runs inside the server, so that no controller manager is needed: each can be
// switched off (tests that want to watch raw deletion semantics turn off the garbage collector, for
// instance). Controllers never throw: failures are logged and retried with backoff until stop().

import { setMaxListeners } from "node:events";
import type { Authorizer } from "../access/authorizer.js";
import type { FeatureGates } from "../features/feature-gates.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { ApiserverIdentityLease } from "./apiserver-identity-lease.js";
import { ApiServiceAutoregistration, type BootSequenceCheck } from "./apiservice-autoregistration.js";
import { ApiServiceLocalAvailability } from "./apiservice-local-availability.js";
import { type ApiServiceSpec, builtinApiService } from "./apiservice-priorities.js";
import { BootstrapSigner } from "./bootstrap-signer.js";
import { CsrApprovingController } from "./certificates/csr-approver.js";
import { CsrSigningController } from "./certificates/csr-signing-controller.js";
import type { SigningCa } from "./certificates/issue-certificate.js";
import { type ClusterAuthenticationInfo, ClusterAuthenticationTrust } from "./cluster-authentication-trust.js";
import { ClusterRoleAggregationController } from "./cluster-role-aggregation.js";
import type { ControllerContext } from "./controller-context.js";
import { controllerEnabled, defaultControllers, knownControllers } from "./controller-selection.js";
import { DisruptionController } from "./disruption-controller.js";
import { FlowControlBootstrap } from "./flow-control-bootstrap.js";
import { GarbageCollector } from "./garbage-collector.js";
import { NamespaceController } from "./namespace-controller.js";
import { PolicyTypeCheckingController } from "./policy-type-checking.js";
import { PvProtectionController } from "./pv-protection.js";
import { PvcProtectionController } from "./pvc-protection.js";
import { ResourceQuotaController } from "./resource-quota-controller.js";
import { RootCaPublisher } from "./root-ca-publisher.js";
import { ServiceAccountController } from "./service-account-controller.js";
import { type ServiceNetworkControllerOptions, startServiceNetworkControllers } from "./service-network-controllers.js";
import { SystemNamespaces } from "./system-namespaces.js";
import { ensureSystemPriorityClasses } from "./system-priority-classes.js";
import { TokenCleaner } from "./token-cleaner.js";
import { VacProtectionController } from "./vac-protection.js";
import { CronJobController } from "./workloads/cronjob-controller.js";
import { DeploymentController } from "./workloads/deployment-controller.js";
import { JobController } from "./workloads/job-controller.js";
import { replicaSetController } from "./workloads/replicaset-controller.js";
import { replicationController } from "./workloads/replication-controller.js";

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
  /** The ConfigMap kube-system/extension-apiserver-authentication; runs only when given the authentication info. */
  clusterAuthenticationTrust?: boolean;
  /** The APIServices of the served group/versions and custom resources, and their Local availability. */
  apiServices?: boolean;
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
  /** Signs approved CertificateSigningRequests of the in-tree signers; runs only with a signing CA. */
  csrSigning?: boolean;
  /** Approves kubelet client CertificateSigningRequests whose requester may; runs only with an authorizer. */
  csrApproving?: boolean;
  /** The status of PodDisruptionBudgets, and stale DisruptionTarget pod conditions. */
  disruption?: boolean;
  /** ReplicaSets' pods and status (runtime/controllers/workloads/). */
  replicaSets?: boolean;
  /** ReplicationControllers' pods and status. */
  replicationControllers?: boolean;
  /** Deployments' ReplicaSets, rollouts and status. */
  deployments?: boolean;
  /** Jobs' pods, completion and status. */
  jobs?: boolean;
  /** CronJobs' scheduled Jobs and status. */
  cronJobs?: boolean;
  /** ResourceQuota status: hard from spec, used from what each namespace holds. */
  resourceQuota?: boolean;
  /** Type-checks ValidatingAdmissionPolicies and writes the result to their status. */
  validatingAdmissionPolicyStatus?: boolean;
  /** Removes a deleted PersistentVolumeClaim's `kubernetes.io/pvc-protection` finalizer once no scheduled pod uses it. */
  pvcProtection?: boolean;
  /** Removes a deleted PersistentVolume's `kubernetes.io/pv-protection` finalizer once it is not Bound. */
  pvProtection?: boolean;
  /** Removes a deleted VolumeAttributesClass's `kubernetes.io/vac-protection` finalizer once nothing names it. */
  vacProtection?: boolean;
}

/** kube-apiserver's own controllers: on unless switched off, whatever `--controllers` says. */
const apiserverControllers = [
  "systemNamespaces",
  "systemPriorityClasses",
  "flowControlBootstrap",
  "apiserverIdentity",
  "serviceNetwork",
  "clusterAuthenticationTrust",
  "apiServices",
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
  csrSigning: "certificatesigningrequest-signing-controller",
  csrApproving: "certificatesigningrequest-approving-controller",
  disruption: "disruption-controller",
  replicaSets: "replicaset-controller",
  replicationControllers: "replicationcontroller-controller",
  deployments: "deployment-controller",
  jobs: "job-controller",
  cronJobs: "cronjob-controller",
  resourceQuota: "resourcequota-controller",
  validatingAdmissionPolicyStatus: "validatingadmissionpolicy-status-controller",
  pvcProtection: "persistentvolumeclaim-protection-controller",
  pvProtection: "persistentvolume-protection-controller",
  vacProtection: "volumeattributesclass-protection-controller",
};

export interface StartControllersOptions {
  /** PEM of the CA that signed the serving certificate, published as `ca.crt`. */
  caCert?: string;
  /** The CA that signs approved CertificateSigningRequests (kube-controller-manager's cluster signing CA). */
  signingCa?: SigningCa;
  /** The server's authorizer, for controllers that ask it as kube's ask SubjectAccessReviews (csrapproving). */
  authorizer?: () => Authorizer;
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
  /** The server's feature gates (APIServerIdentity: the identity lease); default v1.36's defaults. */
  featureGates?: Pick<FeatureGates, "enabled">;
  /** How the server authenticates clients, published in kube-system/extension-apiserver-authentication. */
  clusterAuthentication?: ClusterAuthenticationInfo;
  /** Receives the health checks controllers add to kube-apiserver's boot sequence (`autoregister-completion`). */
  bootSequenceCheck?: (check: BootSequenceCheck) => void;
}

export interface RunningControllers {
  /** Resolves once the system namespaces were created (or failed to be, and are retried). */
  ready: Promise<void>;
  /** Stops every controller and waits for the work under way; call it before closing the ResourceApi. */
  stop(): Promise<void>;
}

/** A controller that runs until the context's signal aborts. */
interface Runnable {
  run(): Promise<void>;
}

type Build = (api: ResourceApi, context: ControllerContext, options: StartControllersOptions) => Runnable | undefined;

/** The build of a controller that needs only the api and the context. */
const plain =
  (Controller: new (api: ResourceApi, context: ControllerContext) => Runnable): Build =>
  (api, context) =>
    new Controller(api, context);

/**
 * The controllers started alike, in start order: each under its switch, when the group/version it needs is
 * served, and when it can be built (undefined when an option it needs is missing); a failure is logged
 * under its name.
 */
const runningControllers: readonly {
  switch: keyof ControllerSwitches;
  name: string;
  serves?: readonly [group: string, version: string];
  build: Build;
}[] = [
  { switch: "garbageCollector", name: "garbage collector", build: plain(GarbageCollector) },
  { switch: "namespaces", name: "namespace controller", build: plain(NamespaceController) },
  { switch: "serviceAccounts", name: "service account controller", build: plain(ServiceAccountController) },
  {
    switch: "rootCa",
    name: "root CA certificate publisher",
    build: (api, context, { caCert }) => (caCert === undefined ? undefined : new RootCaPublisher(api, caCert, context)),
  },
  {
    switch: "clusterRoleAggregation",
    name: "clusterrole aggregation controller",
    build: plain(ClusterRoleAggregationController),
  },
  {
    switch: "validatingAdmissionPolicyStatus",
    name: "validatingadmissionpolicy status controller",
    build: plain(PolicyTypeCheckingController),
  },
  { switch: "disruption", name: "disruption controller", serves: ["policy", "v1"], build: plain(DisruptionController) },
  { switch: "resourceQuota", name: "resourcequota controller", build: plain(ResourceQuotaController) },
  { switch: "pvcProtection", name: "pvc protection controller", build: plain(PvcProtectionController) },
  { switch: "pvProtection", name: "pv protection controller", build: plain(PvProtectionController) },
  {
    switch: "vacProtection",
    name: "vac protection controller",
    serves: ["storage.k8s.io", "v1"],
    build: plain(VacProtectionController),
  },
  {
    switch: "csrSigning",
    name: "csr signing controller",
    serves: ["certificates.k8s.io", "v1"],
    build: (api, context, { signingCa }) =>
      signingCa === undefined ? undefined : new CsrSigningController(api, { ca: signingCa }, context),
  },
  {
    switch: "csrApproving",
    name: "csr approving controller",
    serves: ["certificates.k8s.io", "v1"],
    build: (api, context, { authorizer }) =>
      authorizer === undefined ? undefined : new CsrApprovingController(api, { authorizer }, context),
  },
  { switch: "replicaSets", name: "replicaset controller", serves: ["apps", "v1"], build: replicaSetController },
  { switch: "replicationControllers", name: "replicationcontroller controller", build: replicationController },
  { switch: "deployments", name: "deployment controller", serves: ["apps", "v1"], build: plain(DeploymentController) },
  { switch: "jobs", name: "job controller", serves: ["batch", "v1"], build: plain(JobController) },
  { switch: "cronJobs", name: "cronjob controller", serves: ["batch", "v1"], build: plain(CronJobController) },
  { switch: "tokenCleaner", name: "token cleaner", build: plain(TokenCleaner) },
  {
    switch: "bootstrapSigner",
    name: "bootstrap signer",
    build: (api, context, { caCert, server }) =>
      caCert === undefined || server === undefined ? undefined : new BootstrapSigner(api, { server, caCert }, context),
  },
];

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
  const identity = options.featureGates?.enabled("APIServerIdentity") ?? true;
  if (on("apiserverIdentity") && identity && api.kinds.servesBuiltin("coordination.k8s.io", "v1")) {
    const lease = new ApiserverIdentityLease(api, context);
    // The lease lives in kube-system: it is claimed once the system namespaces exist.
    const claimed = ready.then(() => lease.start());
    postStartHook("start-kube-apiserver-identity-lease-controller", claimed);
    start("apiserver identity lease controller", () => claimed.then(() => lease.renew()));
    postStartHook("start-kube-apiserver-identity-lease-garbage-collector", Promise.resolve());
    start("apiserver lease garbage collector", () => lease.collect());
  }
  if (on("clusterAuthenticationTrust") && options.clusterAuthentication !== undefined) {
    const trust = new ClusterAuthenticationTrust(api, options.clusterAuthentication, context, {
      uidHeaders: options.featureGates?.enabled("RemoteRequestHeaderUID") ?? true,
    });
    // The ConfigMap lives in kube-system: it is first written once the system namespaces exist.
    const started = ready.then(() => trust.started());
    postStartHook("start-cluster-authentication-info-controller", started);
    start("cluster authentication trust controller", () => started.then(() => trust.run()));
  }
  if (on("apiServices") && api.kinds.servesBuiltin("apiregistration.k8s.io", "v1")) {
    const builtin = api.kinds
      .groupVersions()
      .filter((gv) => api.kinds.servesBuiltin(gv.group, gv.version))
      .map((gv) => builtinApiService(gv.group, gv.version))
      .filter((spec): spec is ApiServiceSpec => spec !== undefined);
    const autoregistration = new ApiServiceAutoregistration(api, builtin, context);
    const availability = new ApiServiceLocalAvailability(api, context);
    // The APIService informers are the controllers' own followers, which start here.
    postStartHook("start-kube-aggregator-informers", Promise.resolve());
    postStartHook("apiservice-status-local-available-controller", Promise.resolve());
    start("local APIService availability controller", () => availability.run());
    postStartHook("kube-apiserver-autoregistration", Promise.resolve());
    start("autoregister controller", () => autoregistration.run());
    options.bootSequenceCheck?.(autoregistration.completion);
  }
  if (on("serviceNetwork") && options.serviceNetwork !== undefined) {
    const runner = { context, namespacesReady: ready, postStartHook, start };
    startServiceNetworkControllers(api, options.serviceNetwork, runner);
  }
  for (const controller of runningControllers) {
    if (!on(controller.switch)) continue;
    if (controller.serves !== undefined && !api.kinds.servesBuiltin(...controller.serves)) continue;
    const running = controller.build(api, context, options);
    if (running !== undefined) start(controller.name, () => running.run());
  }

  return {
    ready,
    async stop() {
      abort.abort();
      await Promise.all(runs);
    },
  };
}
