// EncryptionConfiguration (apiserver.config.k8s.io/v1): what a schema cannot declare. Defaulting: kube's
// SetDefaults_KMSConfiguration gives a KMS provider a cache of 1000 only when it speaks KMS v1 (the schema
// already defaults its apiVersion to v1 and its timeout to 3s). Validation: kube's
// ValidateEncryptionConfiguration as kube-apiserver runs it at start (no automatic reload): the resources
// each entry names, one provider per list item, key lengths per cipher, and the KMS rules.
import { parseURL } from "../cel/library/kubernetes/go-url.js";
import { base64ErrorOffset } from "../codecs/go-base64.js";
import { type FieldError, invalid, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { GoStruct } from "../errors/go-format.js";
import { goDurationError, parseGoDuration } from "../object/go-duration.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, listItems } from "../validation/walk.js";

type Json = Record<string, unknown>;

const defaultCacheSize = 1000;
const aesKeySizes = [16, 24, 32];
const secretboxKeySizes = [32];

const moreThanOneElement =
  "more than one provider specified in a single element, should split into different list elements";
const noProvider = "provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity";
const eventsGroup =
  "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file";
const extensionsGroup = "'extensions' group has been removed and cannot be used for encryption";
const starResource = "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources";
const overlap =
  "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked";
const nonRestResource = "resources which do not have REST API/s cannot be encrypted";
const nonRestResources = ["apiserveripinfo", "serviceipallocations", "servicenodeportallocations"];

function defaultEncryptionConfiguration(obj: KubeObject): void {
  for (const resource of listItems(obj.resources)) {
    for (const provider of listItems(asObject(resource)?.providers)) {
      const kms = asObject(asObject(provider)?.kms);
      if (kms !== undefined && kms.apiVersion === "v1") kms.cachesize ??= defaultCacheSize;
    }
  }
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function strings(value: unknown): string[] {
  return listItems(value).map(text);
}

/** schema.ParseGroupResource: everything after the first dot is the group. */
function groupResource(value: string): { group: string; resource: string } {
  const dot = value.indexOf(".");
  return dot < 0 ? { group: "", resource: value } : { group: value.slice(dot + 1), resource: value.slice(0, dot) };
}

function validateResourceOverlap(resources: string[], path: string): FieldError[] {
  if (resources.length < 2) return [];
  const parsed = resources.map(groupResource);
  let hasOverlap = false;
  let hasDuplicate = false;
  // The same pairwise scan as kube's, so that a duplicate pair is not also counted as an overlap.
  for (const [i, r1] of parsed.entries()) {
    for (const [j, r2] of parsed.entries()) {
      if (i === j) continue;
      if (r1.group === r2.group && r1.resource === r2.resource && !hasDuplicate) {
        hasDuplicate = true;
        continue;
      }
      if (hasOverlap) continue;
      if (r1.group === "*" && r1.resource === "*") {
        hasOverlap = true;
        continue;
      }
      if (r1.group !== r2.group) continue;
      if (r1.resource === "*" || r2.resource === "*") hasOverlap = true;
    }
  }
  return [
    ...(hasDuplicate ? [invalid(path, resources, "the same resource cannot be specified multiple times")] : []),
    ...(hasOverlap ? [invalid(path, resources, overlap)] : []),
  ];
}

function resourceNameProblem(resource: string): string | undefined {
  if (resource.toLowerCase() !== resource) return "resource name should not contain capital letters";
  if (resource === "*") return starResource;
  if (nonRestResources.includes(resource)) return nonRestResource;
  const { group, resource: name } = groupResource(resource);
  if (group === "events.k8s.io") return eventsGroup;
  if (group === "extensions") return extensionsGroup;
  if (group === "*" && name !== "*") return "encrypting the same resource across groups is not supported";
  return undefined;
}

function validateResourceNames(resources: string[], path: string): FieldError[] {
  return resources.flatMap((resource, j) => {
    const problem = resourceNameProblem(resource);
    return problem === undefined ? [] : [invalid(index(path, j), resource, problem)];
  });
}

function keysValue(config: unknown): GoStruct | null {
  const object = asObject(config);
  if (object === undefined) return null;
  const keys = listItems(object.keys).map(
    (k) => new GoStruct({ Name: text(asObject(k)?.name), Secret: text(asObject(k)?.secret) }),
  );
  return new GoStruct({ Keys: object.keys === undefined || object.keys === null ? null : keys });
}

function kmsValue(config: unknown): GoStruct | null {
  const kms = asObject(config);
  if (kms === undefined) return null;
  return new GoStruct({
    APIVersion: text(kms.apiVersion),
    Name: text(kms.name),
    CacheSize: typeof kms.cachesize === "number" ? kms.cachesize : null,
    Endpoint: text(kms.endpoint),
    Timeout: typeof kms.timeout === "string" ? kms.timeout : null,
  });
}

/** The provider as kube's error prints it: the internal Go struct, encoded with its Go field names. */
function providerValue(provider: Json): GoStruct {
  return new GoStruct({
    AESGCM: keysValue(provider.aesgcm),
    AESCBC: keysValue(provider.aescbc),
    Secretbox: keysValue(provider.secretbox),
    Identity: asObject(provider.identity) === undefined ? null : new GoStruct({}),
    KMS: kmsValue(provider.kms),
  });
}

const providerKinds = ["kms", "aesgcm", "aescbc", "secretbox", "identity"] as const;

function validateSingleProvider(provider: Json, path: string): FieldError[] {
  const found = providerKinds.filter((k) => asObject(provider[k]) !== undefined).length;
  if (found === 0) return [invalid(path, providerValue(provider), noProvider)];
  if (found > 1) return [invalid(path, providerValue(provider), moreThanOneElement)];
  return [];
}

/** The length of what Go's base64.StdEncoding decodes `secret` into (line breaks skipped). */
function decodedLength(secret: string): number {
  const data = secret.replace(/[\r\n]/g, "");
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

function validateKey(key: Json, path: string, sizes: readonly number[]): FieldError[] {
  const errs: FieldError[] = [];
  if (text(key.name) === "") errs.push(required(child(path, "name"), "name is a mandatory field for a key"));
  const secret = text(key.secret);
  const secretPath = child(path, "secret");
  if (secret === "") return [...errs, required(secretPath, "secret is a mandatory field for a key")];
  if (base64ErrorOffset(secret) !== undefined) {
    return [...errs, invalid(secretPath, "REDACTED", "secrets must be base64 encoded")];
  }
  const length = decodedLength(secret);
  if (!sizes.includes(length)) {
    errs.push(
      invalid(
        secretPath,
        "REDACTED",
        `secret is not of the expected length, got ${length}, expected one of [${sizes.join(" ")}]`,
      ),
    );
  }
  return errs;
}

function validateKeys(config: Json, path: string, sizes: readonly number[]): FieldError[] {
  const keys = listItems(config.keys);
  if (keys.length === 0) return [required(path, "at least one keys is required")];
  return keys.flatMap((key, i) => validateKey(asObject(key) ?? {}, index(path, i), sizes));
}

function validateKmsEndpoint(endpoint: string, path: string): FieldError[] {
  if (endpoint === "") return [invalid(path, "", "endpoint is a mandatory field for a kms")];
  const parsed = parseURL(endpoint);
  if (!parsed.ok) return [invalid(path, endpoint, `invalid endpoint for kms provider, error: ${parsed.error}`)];
  if (parsed.url.scheme !== "unix") {
    return [
      invalid(path, endpoint, `unsupported scheme "${parsed.url.scheme}" for KMS provider, only unix is supported`),
    ];
  }
  return [];
}

function validateKms(kms: Json, path: string, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = text(kms.apiVersion);
  const name = text(kms.name);
  const namePath = child(path, "name");
  if (name === "") errs.push(required(namePath, "name is a mandatory field for a provider"));
  if (apiVersion !== "v1" && name.includes(":")) {
    errs.push(invalid(namePath, name, `invalid KMS provider name ${name}, must not contain ':'`));
  }
  // Without automatic reload only KMS v2 names must be unique (against v1 and v2 names alike).
  if (apiVersion !== "v1" && names.has(name)) {
    errs.push(invalid(namePath, name, `duplicate KMS provider name ${name}, names must be unique`));
  }
  const timeout = typeof kms.timeout === "string" && goDurationError(kms.timeout) === undefined ? kms.timeout : "";
  if (timeout !== "" && parseGoDuration(timeout) <= 0n) {
    errs.push(invalid(child(path, "timeout"), timeout, "timeout should be a positive value"));
  }
  errs.push(...validateKmsEndpoint(text(kms.endpoint), child(path, "endpoint")));
  const cacheSize = kms.cachesize;
  const cachePath = child(path, "cachesize");
  if (apiVersion !== "v1" && typeof cacheSize === "number") {
    errs.push(invalid(cachePath, cacheSize, "cachesize is not supported in v2"));
  }
  if (apiVersion === "v1" && cacheSize === 0) {
    errs.push(invalid(cachePath, cacheSize, "cachesize should be a positive value, or negative to disable"));
  }
  if (apiVersion !== "v1" && apiVersion !== "v2") {
    errs.push(
      invalid(
        child(path, "apiVersion"),
        apiVersion,
        "unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported",
      ),
    );
  }
  return errs;
}

function validateProvider(provider: Json, path: string, kmsNames: Set<string>): FieldError[] {
  const errs = validateSingleProvider(provider, path);
  const kms = asObject(provider.kms);
  const aesgcm = asObject(provider.aesgcm);
  const aescbc = asObject(provider.aescbc);
  const secretbox = asObject(provider.secretbox);
  // kube checks only the first provider present, in this order.
  if (kms !== undefined) {
    errs.push(...validateKms(kms, child(path, "kms"), kmsNames));
    kmsNames.add(text(kms.name));
  } else if (aesgcm !== undefined)
    errs.push(...validateKeys(aesgcm, child(child(path, "aesgcm"), "keys"), aesKeySizes));
  else if (aescbc !== undefined) errs.push(...validateKeys(aescbc, child(child(path, "aescbc"), "keys"), aesKeySizes));
  else if (secretbox !== undefined) {
    errs.push(...validateKeys(secretbox, child(child(path, "secretbox"), "keys"), secretboxKeySizes));
  }
  return errs;
}

function validateEncryptionConfiguration(obj: KubeObject): FieldError[] {
  const root = "resources";
  const entries = listItems(obj.resources);
  if (entries.length === 0) return [required(root, `at least one ${root} is required`)];
  const errs: FieldError[] = [];
  const kmsNames = new Set<string>();
  for (const [i, item] of entries.entries()) {
    const entry = asObject(item) ?? {};
    const resourcesPath = child(index(root, i), "resources");
    const providersPath = child(index(root, i), "providers");
    const resources = strings(entry.resources);
    if (resources.length === 0) errs.push(required(resourcesPath, `at least one ${resourcesPath} is required`));
    errs.push(...validateResourceOverlap(resources, resourcesPath));
    errs.push(...validateResourceNames(resources, resourcesPath));
    const providers = listItems(entry.providers);
    if (providers.length === 0) errs.push(required(providersPath, `at least one ${providersPath} is required`));
    for (const [j, provider] of providers.entries()) {
      errs.push(...validateProvider(asObject(provider) ?? {}, index(providersPath, j), kmsNames));
    }
  }
  return errs;
}

export const strategy: Strategy = {
  default: defaultEncryptionConfiguration,
  validate: validateEncryptionConfiguration,
};
