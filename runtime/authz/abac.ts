// The ABAC authorizer of `--authorization-policy-file` (kube's pkg/auth/authorizer/abac): one JSON Policy
// a line, blank lines and `#` comments skipped. A line of apiVersion abac.authorization.kubernetes.io/
// v1beta1 (kind Policy) holds its attributes under `spec`; any other line (no apiVersion or kind, v0, or
// a type kube does not know) is read as an unversioned v0 policy, whose empty fields widen: no user and
// no group means every authenticated user, no namespace or resource means all of them, and both empty
// also allow every non-resource path. `*` as user or group means every authenticated user in both forms.
// A policy allows a request when its subject, verb (readonly policies only allow get, list and watch)
// and either its namespace, resource and apiGroup or its nonResourcePath (`*`, exact, or a trailing `*`
// prefix) match; no match is no opinion.
import { readFileSync } from "node:fs";
import type {
  Attributes,
  Authorizer,
  Decision,
  NonResourceRule,
  ResourceRule,
  SubjectRules,
} from "../access/authorizer.js";
import { allAuthenticated, type UserInfo } from "../access/user-info.js";

/** The internal abac.PolicySpec every file form converts to. */
export interface AbacPolicy {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
}

const v1beta1 = "abac.authorization.kubernetes.io/v1beta1";
const v0 = "abac.authorization.kubernetes.io/v0";
const stringFields = ["user", "group", "apiGroup", "resource", "namespace", "nonResourcePath"] as const;
const v0StringFields = ["user", "group", "resource", "namespace"] as const;

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

/** Go's json words for a value of the wrong type. */
function wrongType(value: unknown, field: string, want: string): Error {
  return new Error(`json: cannot unmarshal ${typeName(value)} into Go struct field ${field} of type ${want}`);
}

function readFields(
  source: Record<string, unknown>,
  names: readonly string[],
  where: string,
): Partial<Record<string, string>> & { readonly?: boolean } {
  const out: Partial<Record<string, string>> & { readonly?: boolean } = {};
  for (const name of names) {
    const value = source[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") throw wrongType(value, `${where}.${name}`, "string");
    out[name] = value;
  }
  const readonly = source.readonly;
  if (readonly !== undefined && readonly !== null) {
    if (typeof readonly !== "boolean") throw wrongType(readonly, `${where}.readonly`, "bool");
    out.readonly = readonly;
  }
  return out;
}

function fromV1beta1(line: Record<string, unknown>): AbacPolicy {
  const spec = line.spec ?? {};
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    throw wrongType(spec, "Policy.spec", "v1beta1.PolicySpec");
  }
  const f = readFields(spec as Record<string, unknown>, stringFields, "PolicySpec.spec");
  const policy: AbacPolicy = {
    user: f.user ?? "",
    group: f.group ?? "",
    readonly: f.readonly ?? false,
    apiGroup: f.apiGroup ?? "",
    resource: f.resource ?? "",
    namespace: f.namespace ?? "",
    nonResourcePath: f.nonResourcePath ?? "",
  };
  if (policy.user === "*" || policy.group === "*") {
    policy.group = allAuthenticated;
    policy.user = "";
  }
  return policy;
}

function fromV0(line: Record<string, unknown>): AbacPolicy {
  const f = readFields(line, v0StringFields, "Policy");
  const user = f.user ?? "";
  const group = f.group ?? "";
  const namespace = f.namespace ?? "";
  const resource = f.resource ?? "";
  const everyone = (user === "" && group === "") || user === "*" || group === "*";
  return {
    user: user === "*" || group === "*" ? "" : user,
    group: everyone ? allAuthenticated : group,
    readonly: f.readonly ?? false,
    apiGroup: "*",
    resource: resource === "" ? "*" : resource,
    namespace: namespace === "" ? "*" : namespace,
    nonResourcePath: namespace === "" && resource === "" ? "*" : "",
  };
}

/** One line as kube's universal decoder reads it: versioned when its type is known, else v0. */
export function parsePolicyLine(text: string): AbacPolicy {
  const line: unknown = JSON.parse(text);
  if (typeof line !== "object" || line === null || Array.isArray(line)) {
    throw wrongType(line, "Policy", "v0.Policy");
  }
  const record = line as Record<string, unknown>;
  const known = record.kind === "Policy" && (record.apiVersion === v1beta1 || record.apiVersion === v0);
  return known && record.apiVersion === v1beta1 ? fromV1beta1(record) : fromV0(record);
}

/** Reads a policy file; a line that does not decode is an error naming the file, line and text. */
export function loadPolicyFile(path: string): AbacPolicy[] {
  const text = readFileSync(path, "utf8");
  const policies: AbacPolicy[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    try {
      policies.push(parsePolicyLine(line));
    } catch (error) {
      throw new Error(`error reading policy file ${path}, line ${i + 1}: ${line}: ${(error as Error).message}`);
    }
  });
  return policies;
}

function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user !== "") {
    if (p.user === "*") matched = true;
    else if (p.user === user.name) matched = true;
    else return false;
  }
  if (p.group !== "") {
    if (p.group === "*") matched = true;
    else if (user.groups.includes(p.group)) matched = true;
    else return false;
  }
  return matched;
}

const readOnlyVerbs = new Set(["get", "list", "watch"]);

function verbMatches(p: AbacPolicy, a: Attributes): boolean {
  return readOnlyVerbs.has(a.verb) || !p.readonly;
}

function resourceMatches(p: AbacPolicy, a: Attributes): boolean {
  return (
    a.resourceRequest &&
    (p.namespace === "*" || p.namespace === a.namespace) &&
    (p.resource === "*" || p.resource === a.resource) &&
    (p.apiGroup === "*" || p.apiGroup === a.apiGroup)
  );
}

function nonResourceMatches(p: AbacPolicy, a: Attributes): boolean {
  if (a.resourceRequest) return false;
  const path = p.nonResourcePath;
  if (path === "*" || path === a.path) return true;
  return path.endsWith("*") && a.path.startsWith(path.replace(/\*+$/, ""));
}

function verbsOf(p: AbacPolicy): string[] {
  return p.readonly ? ["get", "list", "watch"] : ["*"];
}

const allowed: Decision = { decision: "allow", reason: "" };
const noMatch: Decision = { decision: "noOpinion", reason: "No policy matched." };

export class AbacAuthorizer implements Authorizer {
  constructor(private readonly policies: readonly AbacPolicy[]) {}

  static fromFile(path: string): AbacAuthorizer {
    return new AbacAuthorizer(loadPolicyFile(path));
  }

  authorize(a: Attributes): Decision {
    const matches = (p: AbacPolicy) =>
      subjectMatches(p, a.user) && verbMatches(p, a) && (resourceMatches(p, a) || nonResourceMatches(p, a));
    return this.policies.some(matches) ? allowed : noMatch;
  }

  rulesFor(user: UserInfo, namespace: string): SubjectRules {
    const resourceRules: ResourceRule[] = [];
    const nonResourceRules: NonResourceRule[] = [];
    for (const p of this.policies) {
      if (!subjectMatches(p, user) || (p.namespace !== "*" && p.namespace !== namespace)) continue;
      if (p.resource !== "") {
        resourceRules.push({ verbs: verbsOf(p), apiGroups: [p.apiGroup], resources: [p.resource], resourceNames: [] });
      }
      if (p.nonResourcePath !== "") {
        nonResourceRules.push({ verbs: verbsOf(p), nonResourceURLs: [p.nonResourcePath] });
      }
    }
    return { resourceRules, nonResourceRules, incomplete: false };
  }
}
