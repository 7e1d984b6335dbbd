// The audit policy (audit.k8s.io/v1 Policy) as kube-apiserver loads and applies it: decoded from YAML or JSON
// (strictly, falling back to lenient decoding with a warning when only unknown or repeated fields are wrong),
// validated with kube's texts, then matched rule by rule, the first matching rule deciding the request's
// level, omitted stages and whether managedFields are dropped.
import { readFileSync } from "node:fs";
import type { Level, Policy, PolicyRule, Stage } from "../../generated/audit.k8s.io/v1/types.js";
import { ConfigDecodeError, decodeStrict, type GoShape, yamlToJson } from "../authn/jwt/config-decoder.js";
import { aggregateMessage } from "../errors/aggregate.js";
import { type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { formatFieldError } from "../errors/format-field-error.js";
import { dnsSubdomainErrors } from "../validation/name-formats.js";

export type { Level, Policy, PolicyRule, Stage };

export const levels: readonly Level[] = ["None", "Metadata", "Request", "RequestResponse"];
export const stages: readonly Stage[] = ["RequestReceived", "ResponseStarted", "ResponseComplete", "Panic"];

/** Orders levels as kube's Level.Less does. */
export function levelAtLeast(level: Level, floor: Level): boolean {
  return levels.indexOf(level) >= levels.indexOf(floor);
}

/** What the policy decides for one request (kube's RequestAuditConfig). */
export interface RequestAuditConfig {
  level: Level;
  omitStages: readonly Stage[];
  omitManagedFields: boolean;
}

/** The request attributes a policy rule reads (kube's authorizer.Attributes). */
export interface AuditAttributes {
  user?: { name: string; groups: readonly string[] };
  verb: string;
  resourceRequest: boolean;
  path: string;
  namespace: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  name: string;
}

const strings: GoShape = { kind: "list", item: { kind: "string" } };
const ruleShape: GoShape & { kind: "struct" } = {
  kind: "struct",
  name: "PolicyRule",
  fields: {
    level: { kind: "string", goType: "Level" },
    users: strings,
    userGroups: strings,
    verbs: strings,
    resources: {
      kind: "list",
      item: {
        kind: "struct",
        name: "GroupResources",
        fields: { group: { kind: "string" }, resources: strings, resourceNames: strings },
      },
    },
    namespaces: strings,
    nonResourceURLs: strings,
    omitStages: { kind: "list", item: { kind: "string", goType: "Stage" } },
    omitManagedFields: { kind: "bool" },
  },
};
const policyShape: GoShape & { kind: "struct" } = {
  kind: "struct",
  name: "Policy",
  fields: {
    metadata: { kind: "struct", name: "ObjectMeta", fields: {} },
    rules: { kind: "list", item: ruleShape },
    omitStages: { kind: "list", item: { kind: "string", goType: "Stage" } },
    omitManagedFields: { kind: "bool" },
  },
};

function validateOmitStages(omit: readonly unknown[] | undefined, path: string, errs: FieldError[]): void {
  (omit ?? []).forEach((stage, i) => {
    if (!stages.includes(stage as Stage)) {
      errs.push(invalid(`${path}[${i}]`, stage, `allowed stages are ${stages.join(",")}`));
    }
  });
}

function validateRule(rule: PolicyRule, path: string, errs: FieldError[]): void {
  if ((rule.level as string | undefined) === undefined || rule.level === ("" as Level)) {
    errs.push(required(`${path}.level`));
  } else if (!levels.includes(rule.level)) {
    errs.push(notSupported(`${path}.level`, rule.level, levels));
  }
  (rule.nonResourceURLs ?? []).forEach((url, i) => {
    if (url === "*") return;
    if (!url.startsWith("/")) {
      errs.push(
        invalid(`${path}.nonResourceURLs[${i}]`, url, "non-resource URL rules must begin with a '/' character"),
      );
    }
    if (url !== "" && url.slice(0, -1).includes("*")) {
      errs.push(
        invalid(
          `${path}.nonResourceURLs[${i}]`,
          url,
          "non-resource URL wildcards '*' must be the final character of the rule",
        ),
      );
    }
  });
  for (const groupResources of rule.resources ?? []) {
    const group = groupResources.group ?? "";
    if (group !== "" && group !== "*") {
      const messages = dnsSubdomainErrors(group);
      if (messages.length > 0) errs.push(invalid(`${path}.resources.group`, group, messages.join(",")));
    }
    if ((groupResources.resourceNames ?? []).length > 0 && (groupResources.resources ?? []).length === 0) {
      errs.push(
        invalid(
          `${path}.resources.resourceNames`,
          groupResources.resourceNames,
          "using resourceNames requires at least one resource",
        ),
      );
    }
  }
  validateOmitStages(rule.omitStages, `${path}.omitStages`, errs);
  if (
    (rule.nonResourceURLs ?? []).length > 0 &&
    ((rule.resources ?? []).length > 0 || (rule.namespaces ?? []).length > 0)
  ) {
    errs.push(
      invalid(
        `${path}.nonResourceURLs`,
        rule.nonResourceURLs,
        "rules cannot apply to both regular resources and non-resource URLs",
      ),
    );
  }
}

/** kube's ValidatePolicy: every error, in kube's order. */
export function validatePolicy(policy: Policy): FieldError[] {
  const errs: FieldError[] = [];
  validateOmitStages(policy.omitStages, "omitStages", errs);
  policy.rules.forEach((rule, i) => {
    validateRule(rule, `rules[${i}]`, errs);
  });
  return errs;
}

/**
 * A policy from the bytes of a policy file, as kube's LoadPolicyFromBytes: `warn` receives the strict decoding
 * error when kube falls back to lenient decoding. Throws kube's error text.
 */
export function parsePolicy(text: string, warn: (message: string) => void = () => {}): Policy {
  let json: unknown;
  try {
    json = yamlToJson(text);
  } catch (error) {
    throw new Error(`failed decoding: ${(error as Error).message}`);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new Error("failed decoding: Object 'Kind' is missing in the policy file");
  }
  const object = json as Record<string, unknown>;
  const apiVersion = typeof object.apiVersion === "string" ? object.apiVersion : "";
  const kind = typeof object.kind === "string" ? object.kind : "";
  if (kind === "") throw new Error(`failed decoding: Object 'Kind' is missing in '${JSON.stringify(json)}'`);
  if (apiVersion !== "audit.k8s.io/v1") {
    throw new Error(`failed decoding: no kind "${kind}" is registered for version "${apiVersion}" in scheme`);
  }
  if (kind !== "Policy") {
    throw new Error(`failed decoding: no kind "${kind}" is registered for version "${apiVersion}" in scheme`);
  }
  try {
    // Only its errors matter: the values are read from the JSON, so that an absent *bool stays unset.
    decodeStrict(object, policyShape, "v1");
  } catch (error) {
    if (!(error instanceof ConfigDecodeError) || !error.message.startsWith("strict decoding error")) {
      throw new Error(`failed decoding: ${(error as Error).message}`);
    }
    warn(`Audit policy contains errors, falling back to lenient decoding: ${error.message}`);
  }
  const policy = pickPolicy(object);
  const errs = validatePolicy(policy);
  if (errs.length > 0) throw new Error(aggregateMessage(errs.map(formatFieldError)));
  if (policy.rules.length === 0) throw new Error("loaded illegal policy with 0 rules");
  return policy;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

/** The fields kube's Policy has, with `omitManagedFields` of a rule kept unset when absent (a *bool). */
function pickPolicy(object: Record<string, unknown>): Policy {
  const rules = Array.isArray(object.rules) ? object.rules : [];
  return {
    rules: rules.map((raw): PolicyRule => {
      const r = (raw ?? {}) as Record<string, unknown>;
      const rule: PolicyRule = { level: (typeof r.level === "string" ? r.level : "") as Level };
      for (const key of ["users", "userGroups", "verbs", "namespaces", "nonResourceURLs"] as const) {
        const list = stringList(r[key]);
        if (list !== undefined) rule[key] = list;
      }
      if (Array.isArray(r.resources)) {
        rule.resources = r.resources.map((g) => {
          const gr = (g ?? {}) as Record<string, unknown>;
          return {
            group: typeof gr.group === "string" ? gr.group : "",
            resources: stringList(gr.resources) ?? [],
            resourceNames: stringList(gr.resourceNames) ?? [],
          };
        });
      }
      const omit = stringList(r.omitStages);
      if (omit !== undefined) rule.omitStages = omit as Stage[];
      if (typeof r.omitManagedFields === "boolean") rule.omitManagedFields = r.omitManagedFields;
      return rule;
    }),
    omitStages: (stringList(object.omitStages) ?? []) as Stage[],
    omitManagedFields: object.omitManagedFields === true,
  };
}

/** The policy file at `path`, with kube's error texts (`loading audit policy file: …`). */
export function loadPolicyFile(path: string, warn?: (message: string) => void): Policy {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`loading audit policy file: failed to read file path "${path}": ${(error as Error).message}`);
  }
  try {
    return parsePolicy(text, warn);
  } catch (error) {
    throw new Error(`loading audit policy file: ${(error as Error).message}: from file ${path}`);
  }
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === "*" || spec === path) return true;
  return spec.endsWith("*") && path.startsWith(spec.replace(/\*+$/, ""));
}

function resourceMatches(rule: PolicyRule, attrs: AuditAttributes): boolean {
  if (!attrs.resourceRequest) return false;
  if ((rule.namespaces ?? []).length > 0 && !rule.namespaces?.includes(attrs.namespace)) return false;
  if ((rule.resources ?? []).length === 0) return true;
  const combined = attrs.subresource === "" ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
  for (const gr of rule.resources ?? []) {
    if (gr.group !== attrs.apiGroup && gr.group !== "*") continue;
    const resources = gr.resources ?? [];
    if (resources.length === 0) return true;
    const names = gr.resourceNames ?? [];
    if (names.length > 0 && !names.includes(attrs.name)) continue;
    for (const res of resources) {
      if (res === combined || res === "*") return true;
      if (attrs.subresource !== "" && res.startsWith("*/") && res.slice(2) === attrs.subresource) return true;
      if (res.endsWith("/*") && res.slice(0, -2) === attrs.resource) return true;
    }
  }
  return false;
}

function ruleMatches(rule: PolicyRule, attrs: AuditAttributes): boolean {
  const { user } = attrs;
  if ((rule.users ?? []).length > 0 && (user === undefined || !rule.users?.includes(user.name))) return false;
  if ((rule.userGroups ?? []).length > 0) {
    if (user === undefined || !user.groups.some((group) => rule.userGroups?.includes(group))) return false;
  }
  if ((rule.verbs ?? []).length > 0 && !rule.verbs?.includes(attrs.verb)) return false;
  if ((rule.namespaces ?? []).length > 0 || (rule.resources ?? []).length > 0) return resourceMatches(rule, attrs);
  if ((rule.nonResourceURLs ?? []).length > 0) {
    return !attrs.resourceRequest && (rule.nonResourceURLs ?? []).some((spec) => pathMatches(attrs.path, spec));
  }
  return true;
}

/** The first matching rule's decision, else kube's default (level None, the policy's omitStages). */
/** Each loaded policy's decision per rule (and for no rule), made once: a policy is not changed once loaded. */
const decisions = new WeakMap<Policy, Map<PolicyRule | undefined, RequestAuditConfig>>();

function decisionOf(policy: Policy, rule: PolicyRule | undefined): RequestAuditConfig {
  let byRule = decisions.get(policy);
  if (byRule === undefined) {
    byRule = new Map();
    decisions.set(policy, byRule);
  }
  let decision = byRule.get(rule);
  if (decision === undefined) {
    decision =
      rule === undefined
        ? { level: "None", omitStages: policy.omitStages ?? [], omitManagedFields: policy.omitManagedFields ?? false }
        : {
            level: rule.level,
            omitStages: [...new Set([...(policy.omitStages ?? []), ...(rule.omitStages ?? [])])],
            omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
          };
    byRule.set(rule, decision);
  }
  return decision;
}

export function evaluatePolicy(policy: Policy, attrs: AuditAttributes): Readonly<RequestAuditConfig> {
  for (const rule of policy.rules) if (ruleMatches(rule, attrs)) return decisionOf(policy, rule);
  return decisionOf(policy, undefined);
}
