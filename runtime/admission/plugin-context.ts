// What an admission plugin is built from: the server's API, its access control, the plugin's own
// configuration from `--admission-control-config-file`, and where it reports its metrics and problems.

import type { Authorizer } from "../access/authorizer.js";
import type { RbacIndex } from "../authz/rbac/rbac-index.js";
import type { FeatureGates } from "../features/feature-gates.js";
import type { ErrorLog } from "../http/write-error.js";
import type { ResourceApi } from "../resources/resource-api.js";
import type { AdmissionMetrics } from "./admission-metrics.js";
import type { DefaultTolerationSeconds } from "./pod-plugins/default-toleration-seconds.js";

/**
 * One plugin's entry of the AdmissionConfiguration: its configuration document as text (YAML or JSON; an
 * embedded `configuration` is handed over as JSON), and where it came from, for error messages.
 */
export interface PluginConfig {
  text: string;
  /** The file the text was read from (absolute), or the admission configuration file that embeds it. */
  source: string;
}

export interface AdmissionPluginContext {
  resources: ResourceApi;
  /** The server's authorizer chain, read when a plugin asks (it may be built after the chain). */
  authorizer: () => Authorizer;
  /** RBAC's index when RBAC authorizes; its escalation checks come with it. */
  rbac?: RbacIndex;
  /** This plugin's configuration; undefined when the admission configuration has none for it. */
  config: PluginConfig | undefined;
  metrics: AdmissionMetrics;
  log: ErrorLog;
  /** `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds` (kube: 300 each). */
  defaultTolerationSeconds?: DefaultTolerationSeconds;
  /** The server's feature gates (plugins that kube switches by a gate read theirs); default v1.36's defaults. */
  featureGates?: Pick<FeatureGates, "enabled">;
}

/**
 * A plugin built but found not ready (kube's ValidateInitialization): the start fails with "failed to
 * initialize admission plugin" rather than the factory's "couldn't init admission plugin".
 */
export class PluginInitializationError extends Error {}
