// The authorizer chain's configuration, as kube-apiserver reads it: an AuthorizationConfiguration file
// (apiserver.config.k8s.io v1, v1beta1 or v1alpha1; YAML or JSON; strict) given by
// `--authorization-config`, defaulted and validated with kube's rules and error texts, or the legacy
// flags (`--authorization-mode` and `--authorization-webhook-*`) turned into the same model. Both forms
// together are refused with kube's words. Durations are held in milliseconds.

import { apiserverConfigurationKinds } from "../config/apiserver-kinds.js";
import { ConfigError, type ConfigScheme, decodeConfig } from "../config/config-document.js";
import { aggregateMessage } from "../errors/aggregate.js";
import { formatFieldErrors } from "../errors/format-field-error.js";
import { parseGoDuration } from "../object/go-duration.js";
import {
  type AuthorizationConfiguration,
  type AuthorizerConfiguration,
  type AuthorizerType,
  authorizationConfigurationFrom,
  authorizationModes,
  defaultAuthorizedTtl,
  defaultUnauthorizedTtl,
  maxTimeoutMs,
  toMs,
  validateAuthorizationConfiguration,
  type WebhookConfiguration,
} from "./authorization-configuration.js";

export { formatGoDuration, parseGoDuration } from "../object/go-duration.js";
// The model and the Go duration helpers moved out; their importers keep importing them from here.
export {
  type AuthorizationConfiguration,
  type AuthorizerConfiguration,
  type AuthorizerType,
  authorizationModes,
  validateAuthorizationConfiguration,
  type WebhookConfiguration,
} from "./authorization-configuration.js";

/** kube-apiserver's authorization flags, named after them. */
export interface AuthorizationOptions {
  /** `--authorization-mode`: a comma list or its items; AlwaysAllow when neither this nor a config file is given. */
  authorizationMode?: string | readonly string[];
  /** `--authorization-policy-file`: the ABAC policy file. */
  authorizationPolicyFile?: string;
  /** `--authorization-webhook-config-file`: the webhook's kubeconfig. */
  authorizationWebhookConfigFile?: string;
  /** `--authorization-webhook-version`: v1beta1 (default) or v1. */
  authorizationWebhookVersion?: string;
  /** `--authorization-webhook-cache-authorized-ttl`: a Go duration, default 5m0s. */
  authorizationWebhookCacheAuthorizedTtl?: string;
  /** `--authorization-webhook-cache-unauthorized-ttl`: a Go duration, default 30s. */
  authorizationWebhookCacheUnauthorizedTtl?: string;
  /** `--authorization-config`: an AuthorizationConfiguration file, reloaded when it changes. */
  authorizationConfig?: string;
}

export interface ResolvedAuthorization {
  configuration: AuthorizationConfiguration;
  /** The ABAC policy file, when one was given. */
  policyFile?: string;
  /** The `--authorization-config` file and the text it was read from, for reloading. */
  configFile?: { path: string; data: string };
}

const kind = "AuthorizationConfiguration";
// ---- the file form ----

/** The scheme load.LoadFromData decodes with; another kind of it decodes but is refused after. */
const authorizationScheme: ConfigScheme = {
  name: "pkg/apis/apiserver/load/load.go:32",
  kinds: apiserverConfigurationKinds,
};

/** load.LoadFromData: strict decoding through runtime/config/, the kind checked; no data is the default. */
function decodeConfiguration(data: string): AuthorizationConfiguration {
  if (data.length === 0) return { authorizers: [] };
  let decoded: ReturnType<typeof decodeConfig>;
  try {
    decoded = decodeConfig(data, { scheme: authorizationScheme });
  } catch (error) {
    if (error instanceof ConfigError) throw new Error(error.message);
    throw error;
  }
  if (decoded.gvk.kind !== kind)
    throw new Error(`expected AuthorizationConfiguration, got *apiserver.${decoded.gvk.kind}`);
  return authorizationConfigurationFrom(decoded.object);
}

/**
 * kube-apiserver's LoadAndValidateData: decode, validate, then its own checks (non-webhook authorizers
 * named after their type in lower case; on a reload, every non-webhook type of the first load kept).
 */
export function parseAuthorizationConfiguration(
  data: string,
  requiredTypes: ReadonlySet<AuthorizerType> = new Set(),
): AuthorizationConfiguration {
  let configuration: AuthorizationConfiguration;
  try {
    configuration = decodeConfiguration(data);
  } catch (error) {
    throw new Error(`failed to load AuthorizationConfiguration from file: ${(error as Error).message}`);
  }
  const fieldErrors = validateAuthorizationConfiguration(configuration);
  if (fieldErrors.length > 0) throw new Error(formatFieldErrors(fieldErrors));
  const problems: string[] = [];
  const seen = new Set<AuthorizerType>();
  for (const a of configuration.authorizers) {
    if (a.type === "Webhook") continue;
    seen.add(a.type);
    const expected = a.type.toLowerCase();
    if (a.name !== expected) problems.push(`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`);
  }
  const missing = [...requiredTypes].filter((t) => !seen.has(t)).sort();
  if (missing.length > 0) problems.push(`missing required types: [${missing.join(" ")}]`);
  if (problems.length > 0) throw new Error(aggregateMessage(problems));
  return configuration;
}

// ---- the legacy flags ----

function modesOf(mode: AuthorizationOptions["authorizationMode"]): string[] {
  if (mode === undefined) return [];
  const items = typeof mode === "string" ? [mode] : [...mode];
  return items.flatMap((m) => m.split(",")).filter((m) => m !== "");
}

function flagDuration(flag: string, value: string | undefined, fallback: string): number {
  try {
    return toMs(parseGoDuration(value ?? fallback));
  } catch (error) {
    throw new Error(`invalid argument ${JSON.stringify(value)} for "--${flag}" flag: ${(error as Error).message}`);
  }
}

function legacyConfiguration(options: AuthorizationOptions, modes: readonly string[]): AuthorizationConfiguration {
  const errors: string[] = [];
  for (const mode of modes) {
    if (!(authorizationModes as readonly string[]).includes(mode)) {
      errors.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    }
    if (mode === "ABAC" && !options.authorizationPolicyFile) {
      errors.push("authorization-mode ABAC's authorization policy file not passed");
    }
    if (mode === "Webhook" && !options.authorizationWebhookConfigFile) {
      errors.push("authorization-mode Webhook's authorization config file not passed");
    }
  }
  if (options.authorizationPolicyFile && !modes.includes("ABAC")) {
    errors.push("cannot specify --authorization-policy-file without mode ABAC");
  }
  if (options.authorizationWebhookConfigFile && !modes.includes("Webhook")) {
    errors.push("cannot specify --authorization-webhook-config-file without mode Webhook");
  }
  if (new Set(modes).size !== modes.length) {
    errors.push(`authorization-mode [${modes.join(" ")}] has mode specified more than once`);
  }
  if (errors.length > 0) throw new Error(aggregateMessage(errors));
  const authorizedTtlMs = flagDuration(
    "authorization-webhook-cache-authorized-ttl",
    options.authorizationWebhookCacheAuthorizedTtl,
    defaultAuthorizedTtl,
  );
  const unauthorizedTtlMs = flagDuration(
    "authorization-webhook-cache-unauthorized-ttl",
    options.authorizationWebhookCacheUnauthorizedTtl,
    defaultUnauthorizedTtl,
  );
  return {
    authorizers: modes.map((mode): AuthorizerConfiguration => {
      if (mode !== "Webhook") return { type: mode as AuthorizerType, name: mode.toLowerCase() };
      return {
        type: "Webhook",
        name: "default",
        webhook: {
          authorizedTtlMs,
          cacheAuthorizedRequests: authorizedTtlMs !== 0,
          unauthorizedTtlMs,
          cacheUnauthorizedRequests: unauthorizedTtlMs !== 0,
          // Timeout and failure policy are required in the file; the flags keep kube's old behaviour.
          timeoutMs: maxTimeoutMs,
          failurePolicy: "NoOpinion",
          subjectAccessReviewVersion: (options.authorizationWebhookVersion ??
            "v1beta1") as WebhookConfiguration["subjectAccessReviewVersion"],
          matchConditionSubjectAccessReviewVersion: "",
          connectionInfo: { type: "KubeConfigFile", kubeConfigFile: options.authorizationWebhookConfigFile as string },
          matchConditions: [],
        },
      };
    }),
  };
}

function legacyFlagsSet(options: AuthorizationOptions): boolean {
  return (
    options.authorizationMode !== undefined ||
    options.authorizationWebhookConfigFile !== undefined ||
    options.authorizationWebhookVersion !== undefined ||
    options.authorizationWebhookCacheAuthorizedTtl !== undefined ||
    options.authorizationWebhookCacheUnauthorizedTtl !== undefined
  );
}

/**
 * The configuration the options describe (kube's Complete, Validate and ToAuthorizationConfig): the file's
 * when `--authorization-config` is given (never with the mode or webhook flags), else the flags'.
 * `readFile` reads the configuration file (a seam for tests).
 */
export function resolveAuthorization(
  options: AuthorizationOptions,
  readFile: (path: string) => string,
): ResolvedAuthorization {
  const policyFile = options.authorizationPolicyFile ? { policyFile: options.authorizationPolicyFile } : {};
  const path = options.authorizationConfig;
  if (path !== undefined && path !== "") {
    if (legacyFlagsSet(options)) {
      throw new Error(
        "--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined",
      );
    }
    const data = readFile(path);
    return { configuration: parseAuthorizationConfiguration(data), configFile: { path, data }, ...policyFile };
  }
  const modes = modesOf(options.authorizationMode);
  const configuration = legacyConfiguration(options, modes.length === 0 ? ["AlwaysAllow"] : modes);
  return { configuration, ...policyFile };
}
