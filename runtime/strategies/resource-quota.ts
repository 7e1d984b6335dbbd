// ResourceQuotas (core/v1): kube's ValidateResourceQuota. Every resource name in spec.hard (and in status on a
// status write) must be qualified, a standard quota resource when unprefixed, with a quantity that is not
// negative and whole for the counted resources; scopes must be known, not conflicting, and valid for every
// standard resource the quota limits; scope selector requirements must use an operator that fits their
// scope; and an update may not change spec.scopes. Names are visited sorted where kube's order is a map's.
import { type FieldError, invalid, required } from "../errors/field-error.js";
import { child, key } from "../errors/field-path.js";
import { GoStruct } from "../errors/go-format.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { qualifiedNameErrors } from "../selection/label-validation.js";
import {
  compareQuantity,
  formatQuantity,
  milliValue,
  readQuantity,
  zeroQuantity,
} from "../validation/quantity-arithmetic.js";
import {
  isExtendedResourceName,
  isStandardQuotaResourceName,
  isStandardResourceName,
} from "../validation/resource-names.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

const integerResources = new Set([
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "services.nodeports",
  "services.loadbalancers",
]);

const standardScopes = new Set([
  "Terminating",
  "NotTerminating",
  "BestEffort",
  "NotBestEffort",
  "PriorityClass",
  "VolumeAttributesClass",
  "CrossNamespacePodAffinity",
]);

const podComputeResources = new Set([
  "cpu",
  "memory",
  "limits.cpu",
  "limits.memory",
  "requests.cpu",
  "requests.memory",
]);

const existsOnlyScopes = new Set([
  "BestEffort",
  "NotBestEffort",
  "Terminating",
  "NotTerminating",
  "CrossNamespacePodAffinity",
]);

/** helper.IsResourceQuotaScopeValidForResource. */
function scopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case "Terminating":
    case "NotTerminating":
    case "NotBestEffort":
    case "PriorityClass":
    case "CrossNamespacePodAffinity":
      return resource === "pods" || podComputeResources.has(resource);
    case "BestEffort":
      return resource === "pods";
    case "VolumeAttributesClass":
      return resource === "persistentvolumeclaims" || resource === "requests.storage";
    default:
      return true;
  }
}

function resourceNameErrors(name: string, path: string): FieldError[] {
  const qualified = qualifiedNameErrors(name).map((msg) => invalid(path, name, msg));
  if (qualified.length > 0) return qualified;
  const errors: FieldError[] = [];
  if (!name.includes("/")) {
    if (!isStandardResourceName(name)) {
      errors.push(invalid(path, name, "must be a standard resource type or fully qualified"));
    }
    if (!isStandardQuotaResourceName(name)) errors.push(invalid(path, name, "must be a standard resource for quota"));
  }
  return errors;
}

function resourceListErrors(list: unknown, path: string): FieldError[] {
  const entries = asObject(list) ?? {};
  const errors: FieldError[] = [];
  for (const name of Object.keys(entries).sort()) {
    const at = key(path, name);
    errors.push(...resourceNameErrors(name, at));
    const q = readQuantity(entries[name]);
    if (q === undefined) continue;
    const text = formatQuantity(q);
    if (compareQuantity(q, zeroQuantity) < 0) errors.push(invalid(at, text, "must be greater than or equal to 0"));
    const integer = integerResources.has(name) || isExtendedResourceName(name);
    if (integer && milliValue(q) % 1000n !== 0n) errors.push(invalid(at, text, "must be an integer"));
  }
  return errors;
}

function conflictingScopes(scopes: ReadonlySet<string>): boolean {
  return (
    (scopes.has("BestEffort") && scopes.has("NotBestEffort")) ||
    (scopes.has("Terminating") && scopes.has("NotTerminating"))
  );
}

function scopesErrors(spec: JsonObject, hard: readonly string[]): FieldError[] {
  const scopes = listItems(spec.scopes).map(String);
  if (scopes.length === 0) return [];
  const path = "spec.scopes";
  const errors: FieldError[] = [];
  for (const scope of scopes) {
    if (!standardScopes.has(scope)) errors.push(invalid(path, scopes, "unsupported scope"));
    for (const resource of hard) {
      if (isStandardQuotaResourceName(resource) && !scopeValidForResource(scope, resource)) {
        errors.push(invalid(path, scopes, "unsupported scope applied to resource"));
      }
    }
  }
  if (conflictingScopes(new Set(scopes))) errors.push(invalid(path, scopes, "conflicting scopes"));
  return errors;
}

interface Requirement {
  scopeName?: unknown;
  operator?: unknown;
  values?: unknown;
}

/** The internal ScopeSelector as Go prints it (its fields carry no JSON names). */
function selectorValue(expressions: readonly Requirement[]): GoStruct {
  return new GoStruct({
    MatchExpressions: expressions.map(
      (r) =>
        new GoStruct({
          ScopeName: r.scopeName ?? "",
          Operator: r.operator ?? "",
          Values: Array.isArray(r.values) ? r.values : null,
        }),
    ),
  });
}

function scopeSelectorErrors(spec: JsonObject, hard: readonly string[]): FieldError[] {
  const selector = asObject(spec.scopeSelector);
  if (selector === undefined) return [];
  const path = "spec.scopeSelector.matchExpressions";
  const expressions = listItems(selector.matchExpressions).map((e) => (asObject(e) ?? {}) as Requirement);
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const r of expressions) {
    const scope = String(r.scopeName ?? "");
    const operator = String(r.operator ?? "");
    const values = Array.isArray(r.values) ? r.values : [];
    if (!standardScopes.has(scope)) errors.push(invalid(child(path, "scopeName"), scope, "unsupported scope"));
    for (const resource of hard) {
      if (isStandardQuotaResourceName(resource) && !scopeValidForResource(scope, resource)) {
        errors.push(invalid(path, selectorValue(expressions), "unsupported scope applied to resource"));
      }
    }
    if (existsOnlyScopes.has(scope) && operator !== "Exists") {
      errors.push(
        invalid(
          child(path, "operator"),
          operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    if (operator === "In" || operator === "NotIn") {
      if (values.length === 0) {
        errors.push(
          required(
            child(path, "values"),
            "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
          ),
        );
      }
    } else if (operator === "Exists" || operator === "DoesNotExist") {
      if (values.length !== 0) {
        errors.push(
          invalid(
            child(path, "values"),
            values,
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
          ),
        );
      }
    } else {
      errors.push(invalid(child(path, "operator"), operator, "not a valid selector operator"));
    }
    seen.add(scope);
  }
  if (conflictingScopes(seen)) {
    const scopes = Array.isArray(spec.scopes) ? spec.scopes : null;
    errors.push(invalid(path, scopes, "conflicting scopes"));
  }
  return errors;
}

function specErrors(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec) ?? {};
  const hard = Object.keys(asObject(spec.hard) ?? {}).sort();
  return [
    ...resourceListErrors(spec.hard, "spec.hard"),
    ...scopesErrors(spec, hard),
    ...scopeSelectorErrors(spec, hard),
  ];
}

function statusErrors(obj: KubeObject): FieldError[] {
  const status = asObject(obj.status) ?? {};
  return [...resourceListErrors(status.hard, "status.hard"), ...resourceListErrors(status.used, "status.used")];
}

function scopesOf(obj: KubeObject): string[] {
  return listItems(asObject(obj.spec)?.scopes).map(String);
}

/** kube serializes every quantity canonically; the quota's lists are stored that way (`1.5` as `1500m`). */
function canonicalize(list: unknown): void {
  const entries = asObject(list);
  if (entries === undefined) return;
  for (const [name, value] of Object.entries(entries)) {
    const q = readQuantity(value);
    if (q !== undefined) entries[name] = formatQuantity(q);
  }
}

/** The resources whose request kube compares with their limit when a quota is created. */
const requestLimitPairs = ["cpu", "memory", "storage", "ephemeral-storage"];

/** kube's WarningsOnCreate: a hard request above the matching hard limit (bare cpu/memory count as requests). */
function requestAboveLimit(obj: KubeObject): string[] {
  const hard = asObject(asObject(obj.spec)?.hard) ?? {};
  const warnings: string[] = [];
  for (const resource of requestLimitPairs) {
    let requestName = `requests.${resource}`;
    if (
      hard[requestName] === undefined &&
      (resource === "cpu" || resource === "memory") &&
      hard[resource] !== undefined
    )
      requestName = resource;
    const limitName = `limits.${resource}`;
    const request = readQuantity(hard[requestName]);
    const limit = readQuantity(hard[limitName]);
    if (request !== undefined && limit !== undefined && compareQuantity(request, limit) > 0) {
      warnings.push(
        `ResourceQuota ${requestName} (${formatQuantity(request)}) should be less than ${limitName} (${formatQuantity(limit)})`,
      );
    }
  }
  return warnings;
}

export const strategy: Strategy = {
  tracksGeneration: false,
  warningsOnCreate: requestAboveLimit,
  default(obj) {
    canonicalize(asObject(obj.spec)?.hard);
    const status = asObject(obj.status);
    canonicalize(status?.hard);
    canonicalize(status?.used);
  },
  validate(obj, old, subresource) {
    if (subresource === "status") return statusErrors(obj);
    const errors = specErrors(obj);
    if (old !== undefined) {
      const before = new Set(scopesOf(old));
      const after = new Set(scopesOf(obj));
      if (before.size !== after.size || [...after].some((s) => !before.has(s))) {
        const scopes = asObject(obj.spec)?.scopes;
        errors.push(invalid("spec.scopes", Array.isArray(scopes) ? scopes : null, "field is immutable"));
      }
    }
    return errors;
  },
};
