// The authorizer chain kube-apiserver builds from its authorization configuration: system:masters first
// (PrivilegedGroupAuthorizer), then each configured authorizer in order, as a union where the first allow
// or deny decides. RBAC, Node and ABAC authorizers are made once, for the types the first configuration
// names, and kept across reloads (a reload may not add them); webhooks and the fixed authorizers are made
// anew with each configuration. `createAuthorizer` goes from kube's flags to a served authorizer.
import { readFileSync } from "node:fs";
import type { Authorizer } from "../access/authorizer.js";
import {
  inClusterWebhookClient,
  loadWebhookClient,
  type RetryBackoff,
  type WebhookClient,
} from "../http/webhook-client.js";
import type { MetricRegistry } from "../metrics/metric-registry.js";
import { AbacAuthorizer } from "./abac.js";
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from "./always.js";
import {
  type AuthorizationConfiguration,
  type AuthorizationOptions,
  type AuthorizerConfiguration,
  resolveAuthorization,
  type WebhookConfiguration,
} from "./authorization-config.js";
import { InstrumentedAuthorizer } from "./instrumented-authorizer.js";
import { PrivilegedGroupAuthorizer } from "./privileged-groups.js";
import { ReloadingAuthorizer } from "./reloading-authorizer.js";
import { UnionAuthorizer } from "./union-authorizer.js";
import { WebhookAuthorizer } from "./webhook/webhook-authorizer.js";

/** Makers of the authorizers that follow the server's objects; called once, only for configured types. */
export interface AuthorizerFactories {
  rbac?: () => Authorizer;
  node?: () => Authorizer;
}

/** The authorizers kept across reloads. */
export interface PersistentAuthorizers {
  rbac?: Authorizer;
  node?: Authorizer;
  abac?: Authorizer;
}

export interface WebhookSettings {
  /** kube's retry backoff unless given (tests shorten it). */
  retryBackoff?: RetryBackoff;
  now?: () => number;
  /** The server's registry: each configured authorizer's decisions count in apiserver_authorization_decisions_total. */
  metrics?: MetricRegistry;
}

export function persistentAuthorizers(
  configuration: AuthorizationConfiguration,
  factories: AuthorizerFactories,
  policyFile: string | undefined,
): PersistentAuthorizers {
  const types = new Set(configuration.authorizers.map((a) => a.type));
  const made: PersistentAuthorizers = {};
  for (const type of ["RBAC", "Node"] as const) {
    if (!types.has(type)) continue;
    const factory = type === "RBAC" ? factories.rbac : factories.node;
    if (factory === undefined) throw new Error(`authorization mode ${type} is not available in this server`);
    made[type === "RBAC" ? "rbac" : "node"] = factory();
  }
  // kube opens the policy file whatever the flags say; without one that is `open : no such file…`.
  if (types.has("ABAC")) {
    try {
      made.abac = AbacAuthorizer.fromFile(policyFile ?? "");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw new Error(`open ${policyFile ?? ""}: no such file or directory`);
      throw error;
    }
  }
  return made;
}

const sarVersions = ["v1", "v1beta1"];

function webhookClient(webhook: WebhookConfiguration): WebhookClient {
  if (webhook.connectionInfo.type === "InClusterConfig") {
    return inClusterWebhookClient(
      `/apis/authorization.k8s.io/${webhook.subjectAccessReviewVersion}/subjectaccessreviews`,
    );
  }
  return loadWebhookClient(webhook.connectionInfo.kubeConfigFile ?? "");
}

function webhookAuthorizer(a: AuthorizerConfiguration, settings: WebhookSettings): Authorizer {
  const webhook = a.webhook as WebhookConfiguration;
  if (!sarVersions.includes(webhook.subjectAccessReviewVersion)) {
    throw new Error(
      `unsupported webhook authorizer version ${JSON.stringify(webhook.subjectAccessReviewVersion)}, supported versions are [${sarVersions.join(" ")}]`,
    );
  }
  return new WebhookAuthorizer({
    name: a.name,
    client: webhookClient(webhook),
    subjectAccessReviewVersion: webhook.subjectAccessReviewVersion,
    authorizedTtlMs: webhook.cacheAuthorizedRequests ? webhook.authorizedTtlMs : 0,
    unauthorizedTtlMs: webhook.cacheUnauthorizedRequests ? webhook.unauthorizedTtlMs : 0,
    timeoutMs: webhook.timeoutMs,
    failurePolicy: webhook.failurePolicy,
    matchConditions: webhook.matchConditions,
    ...(settings.retryBackoff === undefined ? {} : { retryBackoff: settings.retryBackoff }),
    ...(settings.now === undefined ? {} : { now: settings.now }),
  });
}

function kept(instance: Authorizer | undefined, type: string): Authorizer {
  if (instance === undefined) {
    throw new Error(`authorizer type ${type} is not allowed if it was not enabled at initial server startup`);
  }
  return instance;
}

function configuredAuthorizer(
  a: AuthorizerConfiguration,
  persistent: PersistentAuthorizers,
  settings: WebhookSettings,
): Authorizer {
  switch (a.type) {
    case "AlwaysAllow":
      return new AlwaysAllowAuthorizer();
    case "AlwaysDeny":
      return new AlwaysDenyAuthorizer();
    case "Webhook":
      return webhookAuthorizer(a, settings);
    case "RBAC":
      return kept(persistent.rbac, a.type);
    case "Node":
      return kept(persistent.node, a.type);
    case "ABAC":
      return kept(persistent.abac, a.type);
    default:
      throw new Error(`unknown authorization mode ${String(a.type)} specified`);
  }
}

/** kube's newForConfig: throws when an authorizer cannot be made (an unreadable webhook kubeconfig…). */
export function buildAuthorizerChain(
  configuration: AuthorizationConfiguration,
  persistent: PersistentAuthorizers,
  settings: WebhookSettings = {},
): Authorizer {
  if (configuration.authorizers.length === 0) throw new Error("at least one authorization mode must be passed");
  const members: Authorizer[] = [new PrivilegedGroupAuthorizer()];
  for (const a of configuration.authorizers) {
    const made = configuredAuthorizer(a, persistent, settings);
    members.push(
      settings.metrics === undefined ? made : new InstrumentedAuthorizer(made, a.type, a.name, settings.metrics),
    );
  }

  return new UnionAuthorizer(members);
}

export interface ServedAuthorizer {
  authorizer: Authorizer;
  /** Starts reloading the `--authorization-config` file (nothing to do for the flags). */
  start(): void;
  stop(): void;
}

export interface CreateAuthorizerSettings extends WebhookSettings {
  log?: (message: string, error?: unknown) => void;
  /** How often the configuration file is read besides change events (60 s). */
  reloadIntervalMs?: number;
}

/** From kube-apiserver's authorization flags to the chain; throws with kube's text on a bad configuration. */
export function createAuthorizer(
  options: AuthorizationOptions,
  factories: AuthorizerFactories,
  settings: CreateAuthorizerSettings = {},
): ServedAuthorizer {
  const resolved = resolveAuthorization(options, (path) => readFileSync(path, "utf8"));
  const persistent = persistentAuthorizers(resolved.configuration, factories, resolved.policyFile);
  const build = (configuration: AuthorizationConfiguration) =>
    buildAuthorizerChain(configuration, persistent, settings);
  if (resolved.configFile === undefined) {
    return { authorizer: build(resolved.configuration), start: () => undefined, stop: () => undefined };
  }
  const reloading = new ReloadingAuthorizer({
    path: resolved.configFile.path,
    data: resolved.configFile.data,
    configuration: resolved.configuration,
    build,
    log: settings.log ?? (() => undefined),
    ...(settings.reloadIntervalMs === undefined ? {} : { intervalMs: settings.reloadIntervalMs }),
  });
  return { authorizer: reloading, start: () => reloading.start(), stop: () => reloading.stop() };
}
