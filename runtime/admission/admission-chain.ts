// The server's admission chain: kube-apiserver's named plugins, in kube's order, of which kapi has those
// listed here (a name kapi does not have is unknown, as kube calls a name it does not have). The write path
// runs every plugin's mutating step, in this order, before any validating step, then the validating steps
// in the same order, as kube runs its chain. Which plugins run follows kube-apiserver's flags:
// `--enable-admission-plugins` and `--disable-admission-plugins` on top of v1.36's default set, or the
// deprecated `--admission-control` naming the whole set.

import { celAuthorizer } from "../authz/cel-authorizer.js";
import { RbacEscalationAdmission } from "../authz/rbac/escalation-admission.js";
import type { AdmissionAttributes, AdmissionPlugin } from "./admission.js";
import { type AdmissionConfiguration, emptyAdmissionConfiguration } from "./admission-configuration.js";
import type { AdmissionMetrics, AdmissionStepType } from "./admission-metrics.js";
import { alwaysAdmit } from "./always-admit.js";
import { alwaysDeny } from "./always-deny.js";
import { certificateApproval } from "./certificates/certificate-approval.js";
import { certificateSigning } from "./certificates/certificate-signing.js";
import { certificateSubjectRestriction } from "./certificates/certificate-subject-restriction.js";
import { clusterTrustBundleAttest } from "./certificates/cluster-trust-bundle-attest.js";
import { eventRateLimit } from "./event-rate-limit/event-rate-limit.js";
import { imagePolicyWebhook } from "./image-policy/image-policy-webhook.js";
import { limitRanger } from "./limit-ranger/limit-ranger.js";
import { namespaceAutoProvision } from "./namespace-autoprovision.js";
import { namespaceExistsPlugin } from "./namespace-exists.js";
import { namespaceLifecycle } from "./namespace-lifecycle.js";
import { nodeRestriction } from "./node-restriction/node-restriction.js";
import { defaultIngressClass } from "./object-plugins/default-ingress-class.js";
import { defaultStorageClass } from "./object-plugins/default-storage-class.js";
import { denyServiceExternalIPs } from "./object-plugins/deny-service-external-ips.js";
import { ownerReferencesPermissionEnforcement } from "./object-plugins/owner-references-permission-enforcement.js";
import { persistentVolumeClaimResize } from "./object-plugins/persistent-volume-claim-resize.js";
import { storageObjectInUseProtection } from "./object-plugins/storage-object-in-use-protection.js";
import { taintNodesByCondition } from "./object-plugins/taint-nodes-by-condition.js";
import { type AdmissionPluginContext, PluginInitializationError } from "./plugin-context.js";
import { alwaysPullImages } from "./pod-plugins/always-pull-images.js";
import { defaultTolerationSeconds } from "./pod-plugins/default-toleration-seconds.js";
import { extendedResourceToleration } from "./pod-plugins/extended-resource-toleration.js";
import { limitPodHardAntiAffinityTopology } from "./pod-plugins/limit-pod-hard-anti-affinity-topology.js";
import { nodeDeclaredFeatureValidator } from "./pod-plugins/node-declared-feature-validator.js";
import { podNodeSelector } from "./pod-plugins/pod-node-selector.js";
import { podResizeValidator } from "./pod-plugins/pod-resize-validator.js";
import { podTolerationRestriction } from "./pod-plugins/pod-toleration-restriction.js";
import { podTopologyLabels } from "./pod-plugins/pod-topology-labels.js";
import { priority } from "./pod-plugins/priority.js";
import { runtimeClass } from "./pod-plugins/runtime-class.js";
import { podSecurity } from "./pod-security/pod-security.js";
import { mutatingAdmissionPolicy } from "./policy/mutating-policy-plugin.js";
import { admissionPolicyEnvironment } from "./policy/policy-environment.js";
import { validatingAdmissionPolicy } from "./policy/policy-plugin.js";
import { resourceQuota } from "./resource-quota/resource-quota-plugin.js";
import { serviceAccountAdmission } from "./service-account/service-account-admission.js";
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from "./webhook/webhook-plugins.js";

interface PluginEntry {
  /** kube's plugin name. */
  name: string;
  /** In kube-apiserver v1.36's default set. */
  defaultOn: boolean;
  /** The plugin, or undefined when the server serves nothing it could act on (its API group is off). */
  build(context: AdmissionPluginContext): AdmissionPlugin | undefined;
}

const plugins: readonly PluginEntry[] = [
  { name: "AlwaysAdmit", defaultOn: false, build: () => alwaysAdmit() },
  { name: "NamespaceAutoProvision", defaultOn: false, build: (c) => namespaceAutoProvision(c.resources) },
  { name: "NamespaceLifecycle", defaultOn: true, build: (c) => namespaceLifecycle(c.resources) },
  { name: "NamespaceExists", defaultOn: false, build: (c) => namespaceExistsPlugin(c.resources) },
  { name: "LimitPodHardAntiAffinityTopology", defaultOn: false, build: () => limitPodHardAntiAffinityTopology() },
  { name: "LimitRanger", defaultOn: true, build: (c) => limitRanger(c.resources) },
  { name: "ServiceAccount", defaultOn: true, build: (c) => serviceAccountAdmission(c.resources) },
  { name: "NodeRestriction", defaultOn: false, build: (c) => nodeRestriction(c.resources, c.authorizer) },
  { name: "TaintNodesByCondition", defaultOn: true, build: () => taintNodesByCondition() },
  { name: "AlwaysPullImages", defaultOn: false, build: () => alwaysPullImages() },
  { name: "ImagePolicyWebhook", defaultOn: false, build: (c) => imagePolicyWebhook(c) },
  { name: "PodSecurity", defaultOn: true, build: (c) => podSecurity(c) },
  { name: "PodNodeSelector", defaultOn: false, build: (c) => podNodeSelector(c) },
  { name: "Priority", defaultOn: true, build: (c) => priority(c.resources) },
  {
    name: "DefaultTolerationSeconds",
    defaultOn: true,
    build: (c) => defaultTolerationSeconds(c.defaultTolerationSeconds),
  },
  { name: "PodTolerationRestriction", defaultOn: false, build: (c) => podTolerationRestriction(c) },
  { name: "EventRateLimit", defaultOn: false, build: (c) => eventRateLimit(c) },
  { name: "ExtendedResourceToleration", defaultOn: false, build: () => extendedResourceToleration() },
  { name: "DefaultStorageClass", defaultOn: true, build: (c) => defaultStorageClass(c.resources) },
  { name: "StorageObjectInUseProtection", defaultOn: true, build: () => storageObjectInUseProtection() },
  {
    name: "OwnerReferencesPermissionEnforcement",
    defaultOn: false,
    build: (c) => ownerReferencesPermissionEnforcement(c.resources.kinds, c.authorizer),
  },
  { name: "PersistentVolumeClaimResize", defaultOn: true, build: (c) => persistentVolumeClaimResize(c.resources) },
  { name: "RuntimeClass", defaultOn: true, build: (c) => runtimeClass(c.resources) },
  { name: "CertificateApproval", defaultOn: true, build: (c) => certificateApproval(c) },
  { name: "CertificateSigning", defaultOn: true, build: (c) => certificateSigning(c) },
  { name: "ClusterTrustBundleAttest", defaultOn: true, build: (c) => clusterTrustBundleAttest(c) },
  { name: "CertificateSubjectRestriction", defaultOn: true, build: () => certificateSubjectRestriction() },
  { name: "DefaultIngressClass", defaultOn: true, build: (c) => defaultIngressClass(c.resources) },
  { name: "DenyServiceExternalIPs", defaultOn: false, build: () => denyServiceExternalIPs() },
  { name: "PodTopologyLabels", defaultOn: true, build: (c) => podTopologyLabels(c.resources) },
  { name: "NodeDeclaredFeatureValidator", defaultOn: true, build: (c) => nodeDeclaredFeatureValidator(c.resources) },
  { name: "PodResizeValidator", defaultOn: true, build: (c) => podResizeValidator(c.resources) },
  {
    name: "MutatingAdmissionPolicy",
    defaultOn: true,
    build: (c) => {
      if (!c.resources.kinds.servesBuiltin("admissionregistration.k8s.io", "v1")) return undefined;
      // The feature gate off, kube's plugin stays in the chain and lets every request through untouched.
      if (c.featureGates?.enabled("MutatingAdmissionPolicy") === false) {
        return { name: "MutatingAdmissionPolicy", mutate: () => undefined };
      }
      return mutatingAdmissionPolicy(c);
    },
  },
  {
    name: "MutatingAdmissionWebhook",
    defaultOn: true,
    build: (c) =>
      c.resources.kinds.servesBuiltin("admissionregistration.k8s.io", "v1") ? mutatingAdmissionWebhook(c) : undefined,
  },
  {
    name: "ValidatingAdmissionPolicy",
    defaultOn: true,
    build: (c) =>
      c.resources.kinds.servesBuiltin("admissionregistration.k8s.io", "v1")
        ? validatingAdmissionPolicy(c.resources, {
            environment: admissionPolicyEnvironment,
            authorizer: celAuthorizer(c.authorizer),
          })
        : undefined,
  },
  {
    name: "ValidatingAdmissionWebhook",
    defaultOn: true,
    build: (c) =>
      c.resources.kinds.servesBuiltin("admissionregistration.k8s.io", "v1") ? validatingAdmissionWebhook(c) : undefined,
  },
  { name: "ResourceQuota", defaultOn: true, build: (c) => resourceQuota(c) },
  { name: "AlwaysDeny", defaultOn: false, build: () => alwaysDeny() },
];

/** Every plugin kapi has, in the order they run. */
export const admissionPluginNames: readonly string[] = plugins.map((entry) => entry.name);

/** The plugins on when no flag says otherwise: kube-apiserver v1.36's default set, as far as kapi has it. */
export const defaultAdmissionPluginNames: readonly string[] = plugins
  .filter((entry) => entry.defaultOn)
  .map((entry) => entry.name);

/** kube-apiserver's admission flags. */
export interface AdmissionOptions {
  /** `--enable-admission-plugins`: plugins on in addition to the default set. */
  enablePlugins?: readonly string[];
  /** `--disable-admission-plugins`: plugins of the default set to leave off. */
  disablePlugins?: readonly string[];
  /** The deprecated `--admission-control`: exactly the plugins on (with neither flag above). */
  admissionControl?: readonly string[];
  /** `--admission-control-config-file`: an AdmissionConfiguration with the plugins' configurations. */
  configFile?: string;
  /** `--default-not-ready-toleration-seconds`: DefaultTolerationSeconds' not-ready toleration; default 300. */
  defaultNotReadyTolerationSeconds?: number;
  /** `--default-unreachable-toleration-seconds`: DefaultTolerationSeconds' unreachable toleration; default 300. */
  defaultUnreachableTolerationSeconds?: number;
}

/** Go's utilerrors aggregate: one error as itself, several in brackets. */
function aggregate(errors: readonly string[]): Error {
  return new Error(errors.length === 1 ? (errors[0] as string) : `[${errors.join(", ")}]`);
}

/** The plugins the flags turn on, in running order; flags naming unknown plugins fail as kube-apiserver fails. */
export function enabledAdmissionPlugins(options: AdmissionOptions = {}): string[] {
  const known = new Set(admissionPluginNames);
  const errors: string[] = [];
  const { admissionControl } = options;
  let enable = options.enablePlugins ?? [];
  let disable = options.disablePlugins ?? [];
  if (admissionControl !== undefined) {
    if (options.enablePlugins !== undefined || options.disablePlugins !== undefined) {
      errors.push(
        "admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive",
      );
    }
    for (const name of admissionControl)
      if (!known.has(name)) errors.push(`admission-control plugin "${name}" is unknown`);
    enable = admissionControl;
    disable = admissionPluginNames.filter((name) => !admissionControl.includes(name)).sort();
  }
  for (const name of enable) if (!known.has(name)) errors.push(`enable-admission-plugins plugin "${name}" is unknown`);
  for (const name of disable)
    if (!known.has(name)) errors.push(`disable-admission-plugins plugin "${name}" is unknown`);
  const overlap = [...new Set(enable)].filter((name) => disable.includes(name)).sort();
  if (overlap.length > 0 && admissionControl === undefined) {
    errors.push(`[${overlap.join(" ")}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  }
  if (errors.length > 0) throw aggregate(errors);
  const off = new Set([...plugins.filter((e) => !e.defaultOn).map((e) => e.name), ...disable]);
  for (const name of enable) off.delete(name);
  return admissionPluginNames.filter((name) => !off.has(name));
}

/** The plugin, its steps timed into apiserver_admission_controller_admission_duration_seconds. */
function measured(plugin: AdmissionPlugin, metrics: AdmissionMetrics): AdmissionPlugin {
  // Most steps are synchronous: they stay so, with no promise of their own on every write.
  const timed =
    (type: AdmissionStepType, step: (a: AdmissionAttributes) => Promise<void> | void) =>
    (a: AdmissionAttributes): Promise<void> | undefined => {
      const started = performance.now();
      const record = (rejected: boolean) =>
        metrics.controller(plugin.name, type, a.operation, rejected, (performance.now() - started) / 1000);
      let pending: Promise<void> | void;
      try {
        pending = step(a);
      } catch (error) {
        record(true);
        throw error;
      }
      if (pending === undefined) {
        record(false);
        return undefined;
      }
      return pending.then(
        () => record(false),
        (error: unknown) => {
          record(true);
          throw error;
        },
      );
    };
  const { mutate, validate } = plugin;
  return {
    name: plugin.name,
    ...(mutate === undefined ? {} : { mutate: timed("admit", mutate.bind(plugin)) }),
    ...(validate === undefined ? {} : { validate: timed("validate", validate.bind(plugin)) }),
  };
}

/** What every plugin is built from; each one's own configuration comes from the AdmissionConfiguration. */
export type ChainContext = Omit<AdmissionPluginContext, "config">;

/**
 * The chain the server runs: RBAC's escalation checks first (kube makes them in RBAC's storage, before
 * admission validates; kapi runs them as a step that no flag names), then the enabled plugins in order.
 */
export function admissionChain(
  context: ChainContext,
  enabled: readonly string[] = defaultAdmissionPluginNames,
  configuration: AdmissionConfiguration = emptyAdmissionConfiguration,
): AdmissionPlugin[] {
  const chain: AdmissionPlugin[] = [];
  if (context.rbac !== undefined) chain.push(new RbacEscalationAdmission(context.rbac, context.authorizer));
  for (const entry of plugins) {
    if (!enabled.includes(entry.name)) continue;
    let plugin: AdmissionPlugin | undefined;
    try {
      plugin = entry.build({ ...context, config: configuration.get(entry.name) });
    } catch (error) {
      const step = error instanceof PluginInitializationError ? "failed to initialize" : "couldn't init";
      throw new Error(`${step} admission plugin "${entry.name}": ${(error as Error).message}`);
    }
    if (plugin !== undefined) chain.push(measured(plugin, context.metrics));
  }
  return chain;
}
