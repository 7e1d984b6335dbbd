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
import { eventRateLimit } from "./event-rate-limit/event-rate-limit.js";
import { imagePolicyWebhook } from "./image-policy/image-policy-webhook.js";
import { namespaceAutoProvision } from "./namespace-autoprovision.js";
import { namespaceExistsPlugin } from "./namespace-exists.js";
import { namespaceLifecycle } from "./namespace-lifecycle.js";
import type { AdmissionPluginContext } from "./plugin-context.js";
import { mutatingAdmissionPolicy } from "./policy/mutating-policy-plugin.js";
import { admissionPolicyEnvironment } from "./policy/policy-environment.js";
import { validatingAdmissionPolicy } from "./policy/policy-plugin.js";
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
  { name: "ImagePolicyWebhook", defaultOn: false, build: (c) => imagePolicyWebhook(c) },
  { name: "EventRateLimit", defaultOn: false, build: (c) => eventRateLimit(c) },
  {
    name: "MutatingAdmissionPolicy",
    defaultOn: true,
    build: (c) =>
      c.resources.kinds.servesBuiltin("admissionregistration.k8s.io", "v1") ? mutatingAdmissionPolicy(c) : undefined,
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
  const timed =
    (type: AdmissionStepType, step: (a: AdmissionAttributes) => Promise<void> | void) =>
    async (a: AdmissionAttributes) => {
      const started = performance.now();
      let rejected = true;
      try {
        await step(a);
        rejected = false;
      } finally {
        metrics.controller(plugin.name, type, a.operation, rejected, (performance.now() - started) / 1000);
      }
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
      throw new Error(`couldn't init admission plugin "${entry.name}": ${(error as Error).message}`);
    }
    if (plugin !== undefined) chain.push(measured(plugin, context.metrics));
  }
  return chain;
}
