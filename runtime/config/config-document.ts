// Configuration files (apiserver.config.k8s.io AuthenticationConfiguration, an admission plugin's
// Configuration, …) read as kube reads them: one YAML or JSON document decoded by apiVersion and kind into a
// kind of a non-served schema group, strictly (unknown and repeated fields refused with kube's decoder texts),
// then defaulted and validated. Everything is driven by the generated tables, so a schema file that declares a
// configuration kind makes it readable here with no code change; behaviour a schema cannot declare (kube's
// hand-coded validation, a default that depends on another field) is the `default` and `validate` of the
// strategy module the kind names (docs/configuration-files.md).
import { conversionTable } from "../../generated/conversions.js";
import { kinds } from "../../generated/registry.js";
import { strategies } from "../../generated/strategies.js";
import { validation, validationKey } from "../../generated/validation.js";
import { validateSchemaRules } from "../cel/rules/schema-rules.js";
import { decodeBody } from "../codecs/decode-body.js";
import { checkFields, kindFields } from "../codecs/unknown-fields.js";
import { ConversionError, convert } from "../conversion/convert.js";
import type { FieldError } from "../errors/field-error.js";
import { formatFieldError } from "../errors/format-field-error.js";
import { StatusError } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { GroupVersionKind, KindRecord } from "../registry/kind-record.js";
import { normalizeDurations } from "./normalize-durations.js";

/** A configuration document that cannot be read; `messages` are kube's, `message` as kube prints them. */
export class ConfigError extends Error {
  constructor(readonly messages: readonly string[]) {
    super(messages.length === 1 ? (messages[0] ?? "") : `[${messages.join(", ")}]`);
    this.name = "ConfigError";
  }
}

/** The kinds a reader accepts, as a kube component's scheme registers them. */
export interface ConfigScheme {
  /** Where kube creates the scheme; its "no kind is registered" error names it. */
  name: string;
  /** "group/version/Kind" keys ("v1/Kind" for the core group); every configuration kind when absent. */
  kinds?: readonly string[];
}

export interface DecodeOptions {
  /** Refuse unknown and repeated fields (kube's strict decoding, the default); off, they are dropped silently. */
  strict?: boolean;
  scheme?: ConfigScheme;
}

export interface DecodedConfig {
  object: Record<string, unknown>;
  gvk: GroupVersionKind;
}

/** The scheme `kapi config` reads with: every configuration kind the schemas declare. */
const allConfigKinds: ConfigScheme = { name: "kapi" };

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash === -1
    ? { group: "", version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** A configuration kind: one the schemas declare without a REST mapping. */
function configKind(gvk: GroupVersionKind): KindRecord | undefined {
  return kinds.find(
    (k) => k.resource === undefined && k.group === gvk.group && k.version === gvk.version && k.kind === gvk.kind,
  );
}

function gvkOf(object: Record<string, unknown>): GroupVersionKind {
  const apiVersion = typeof object.apiVersion === "string" ? object.apiVersion : "";
  const kind = typeof object.kind === "string" ? object.kind : "";
  return { ...splitApiVersion(apiVersion), kind };
}

function keyOf(gvk: GroupVersionKind): string {
  return validationKey(gvk.group, gvk.version, gvk.kind);
}

/**
 * Decodes one configuration document (YAML or JSON; like kube, only the first YAML document is read). Throws a
 * ConfigError in kube's words: a document that does not parse, a missing apiVersion or kind, a kind the scheme
 * does not register, a value of the wrong type, and under strict decoding unknown or repeated fields.
 */
export function decodeConfig(text: string, options: DecodeOptions = {}): DecodedConfig {
  const scheme = options.scheme ?? allConfigKinds;
  let value: Record<string, unknown>;
  let yamlDuplicates: string[];
  let duplicateKeys: Parameters<typeof checkFields>[2];
  try {
    const decoded = decodeBody("application/yaml", Buffer.from(text, "utf8"));
    value = decoded.value;
    yamlDuplicates = decoded.yamlDuplicates;
    duplicateKeys = decoded.duplicateKeys;
  } catch (error) {
    if (error instanceof StatusError) throw new ConfigError([error.message]);
    throw error;
  }
  const gvk = gvkOf(value);
  if (gvk.kind === "") throw new ConfigError([`Object 'Kind' is missing in '${text}'`]);
  if (typeof value.apiVersion !== "string" || value.apiVersion === "") {
    throw new ConfigError([`Object 'apiVersion' is missing in '${text}'`]);
  }
  const registered = configKind(gvk) !== undefined && (scheme.kinds?.includes(keyOf(gvk)) ?? true);
  const n = kindFields(gvk.group, gvk.version, gvk.kind);
  if (!registered || n === undefined) {
    throw new ConfigError([
      `no kind ${JSON.stringify(gvk.kind)} is registered for version ${JSON.stringify(value.apiVersion)} in scheme ${JSON.stringify(scheme.name)}`,
    ]);
  }
  const check = checkFields(value, n, duplicateKeys);
  if (check.fatal !== undefined) throw new ConfigError([check.fatal]);
  const problems = [
    ...(yamlDuplicates.length === 0 ? [] : [`yaml: unmarshal errors:\n  ${yamlDuplicates.join("\n  ")}`]),
    ...check.problems,
  ];
  if ((options.strict ?? true) && problems.length > 0) {
    throw new ConfigError([`strict decoding error: ${problems.join(", ")}`]);
  }
  return { object: value, gvk };
}

function strategyOf(gvk: GroupVersionKind) {
  const name = configKind(gvk)?.strategy;
  return name === undefined ? undefined : strategies[name];
}

function requireKnown(object: Record<string, unknown>): GroupVersionKind {
  const gvk = gvkOf(object);
  if (configKind(gvk) === undefined || validation[keyOf(gvk)] === undefined) {
    throw new ConfigError([
      `no kind ${JSON.stringify(gvk.kind)} is registered for version ${JSON.stringify(object.apiVersion ?? "")}`,
    ]);
  }
  return gvk;
}

/** A copy of a decoded configuration object with kube's defaults applied (schema defaults, then the kind's hook). */
export function defaultConfig(object: Record<string, unknown>): Record<string, unknown> {
  const gvk = requireKnown(object);
  const copy = structuredClone(object);
  validation[keyOf(gvk)]?.default(copy);
  strategyOf(gvk)?.default?.(copy as KubeObject);
  const n = kindFields(gvk.group, gvk.version, gvk.kind);
  if (n !== undefined) normalizeDurations(copy, n);
  return copy;
}

/** The field errors of a decoded configuration object, each as kube's field.Error prints it. */
export function validateConfig(object: Record<string, unknown>): string[] {
  return configFieldErrors(object).map(formatFieldError);
}

/** The field errors of a decoded configuration object: structural ones, the kind's hook's, then CEL rules'. */
export function configFieldErrors(object: Record<string, unknown>): FieldError[] {
  const gvk = requireKnown(object);
  const kindValidation = validation[keyOf(gvk)];
  const errs = [
    ...(kindValidation?.validate(object) ?? []),
    ...(strategyOf(gvk)?.validate?.(object as KubeObject) ?? []),
  ];
  const celSchema = kindValidation?.celSchema;
  if (celSchema !== undefined) errs.push(...validateSchemaRules(celSchema, object, undefined, errs));
  return errs;
}

/** A copy of a configuration object in another version of its group ("group/version"), through the generated conversions. */
export function convertConfig(object: Record<string, unknown>, targetGroupVersion: string): Record<string, unknown> {
  const gvk = requireKnown(object);
  const target = splitApiVersion(targetGroupVersion);
  if (target.group !== gvk.group || configKind({ ...target, kind: gvk.kind }) === undefined) {
    throw new ConfigError([
      `no kind ${JSON.stringify(gvk.kind)} is registered for version ${JSON.stringify(targetGroupVersion)}`,
    ]);
  }
  try {
    return convert(conversionTable, object, target.version);
  } catch (error) {
    if (error instanceof ConversionError) throw new ConfigError([error.message]);
    throw error;
  }
}
