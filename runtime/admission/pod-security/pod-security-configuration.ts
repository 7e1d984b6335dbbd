// PodSecurity's configuration (pod-security.admission.config.k8s.io v1, v1beta1 or v1alpha1
// PodSecurityConfiguration): the default policy for namespaces without labels and the exempt users, runtime
// classes and namespaces. Decoded strictly as kube's scheme decodes it, defaulted (privileged, latest) and
// validated with kube's texts; without a configuration the plugin runs with the defaults alone.
import { formatFieldErrors } from "../../errors/format-field-error.js";
import { goJsonValueKind } from "../../errors/go-json-kind.js";
import { decodePluginConfig, type PluginConfigScheme } from "../plugin-config-document.js";
import { PluginInitializationError } from "../plugin-context.js";
import { validatePodSecurityExemptions } from "./pod-security-validation.js";
import {
  type Level,
  latest,
  levelError,
  type Policy,
  parseLevel,
  parseVersion,
  type Version,
  versionError,
} from "./policy-levels.js";

export const configurationGroup = "pod-security.admission.config.k8s.io";
const scheme: PluginConfigScheme = {
  name: "k8s.io/pod-security-admission/admission/api/scheme/scheme.go:31",
  kinds: new Map(
    ["v1", "v1beta1", "v1alpha1"].map((version) => [`${configurationGroup}/${version}`, "PodSecurityConfiguration"]),
  ),
  strict: true,
};

export interface PodSecurityConfiguration {
  defaults: Policy;
  exemptions: { usernames: string[]; namespaces: string[]; runtimeClasses: string[] };
}

const defaultFields = ["enforce", "enforce-version", "audit", "audit-version", "warn", "warn-version"] as const;

function unmarshalError(value: unknown, field: string, goType: string): Error {
  return new Error(`json: cannot unmarshal ${goJsonValueKind(value)} into Go struct field ${field} of type ${goType}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function section(document: Record<string, unknown>, name: string, goType: string): Record<string, unknown> {
  const value = document[name];
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw unmarshalError(value, `PodSecurityConfiguration.${name}`, `v1.${goType}`);
  return value;
}

function stringField(owner: Record<string, unknown>, key: string, goStruct: string, path: string): string {
  const value = owner[key];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw unmarshalError(value, `${goStruct}.${path}.${key}`, "string");
  return value;
}

function stringList(owner: Record<string, unknown>, key: string): string[] {
  const value = owner[key];
  if (value === undefined || value === null) return [];
  const field = `PodSecurityExemptions.exemptions.${key}`;
  if (!Array.isArray(value)) throw unmarshalError(value, field, "[]string");
  return value.map((item) => {
    if (typeof item !== "string") throw unmarshalError(item, field, "string");
    return item;
  });
}

/** kube's ToPolicy: the defaults as a policy; an invalid value is a configuration error. */
function defaultsPolicy(values: Record<(typeof defaultFields)[number], string>): Policy {
  const problems: string[] = [];
  const level = (field: (typeof defaultFields)[number]): Level => {
    const parsed = parseLevel(values[field]);
    if (parsed === undefined) problems.push(`${field}: ${levelError}`);
    return parsed ?? "restricted";
  };
  const version = (field: (typeof defaultFields)[number]): Version => {
    const parsed = parseVersion(values[field]);
    if (parsed === undefined) problems.push(`${field}: ${versionError}`);
    return parsed ?? latest;
  };
  const policy: Policy = {
    enforce: { level: level("enforce"), version: version("enforce-version") },
    audit: { level: level("audit"), version: version("audit-version") },
    warn: { level: level("warn"), version: version("warn-version") },
  };
  if (problems.length > 0) {
    const message = problems.length === 1 ? problems[0] : `[${problems.join(", ")}]`;
    throw new PluginInitializationError(`PodSecurity configuration error: ${message}`);
  }
  return policy;
}

/**
 * The configuration of a text (none: the defaults). Decoding errors are the factory's (kube: "couldn't init
 * admission plugin"); invalid values throw ConfigurationInvalid (kube: "failed to initialize admission plugin").
 */
export function loadPodSecurityConfiguration(text: string | undefined): PodSecurityConfiguration {
  const document = text === undefined || text.trim() === "" ? {} : decodePluginConfig(text, scheme);
  const defaults = section(document, "defaults", "PodSecurityDefaults");
  const exemptions = section(document, "exemptions", "PodSecurityExemptions");
  const values = {} as Record<(typeof defaultFields)[number], string>;
  for (const field of defaultFields) {
    const value = stringField(defaults, field, "PodSecurityDefaults", "defaults");
    values[field] = value !== "" ? value : field.endsWith("-version") ? "latest" : "privileged";
  }
  const configuration: PodSecurityConfiguration = {
    defaults: defaultsPolicy(values),
    exemptions: {
      usernames: stringList(exemptions, "usernames"),
      namespaces: stringList(exemptions, "namespaces"),
      runtimeClasses: stringList(exemptions, "runtimeClasses"),
    },
  };
  const errors = validatePodSecurityExemptions(configuration.exemptions);
  if (errors.length > 0) throw new PluginInitializationError(`PodSecurity invalid: ${formatFieldErrors(errors)}`);
  return configuration;
}
