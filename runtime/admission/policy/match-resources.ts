// Which requests an admission policy (or binding) applies to: admissionregistration's MatchResources
// with its rules, namespace and object selectors, exclusions and match policy, as kube-apiserver's
// admission matcher reads them.

import type { Labels } from "../../selection/label-selector.js";
import type { LabelSelectorObject } from "../../selection/label-selector-object.js";
import { labelSelectorFromObject } from "../../selection/label-selector-object.js";
import type { AdmissionAttributes, Operation } from "../admission.js";

export interface NamedRuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
  resourceNames?: string[];
}

export interface MatchResources {
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: "Exact" | "Equivalent";
}

/** The request as a rule sees it: at the version it matched, which Equivalent matching may change. */
export interface RuleRequest {
  operation: Operation;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespaced: boolean;
  name: string;
}

function listed(values: readonly string[] | undefined, value: string): boolean {
  return values !== undefined && (values.includes("*") || values.includes(value));
}

/** `pods`, `pods/status`, `*`, `*​/*`, `pods/*`, `*​/scale`, as the webhook rule matcher reads them. */
function resourceListed(resources: readonly string[] | undefined, resource: string, subresource: string): boolean {
  for (const entry of resources ?? []) {
    const [r = "", s] = entry.split("/", 2);
    if (subresource === "") {
      if (s === undefined && (r === "*" || r === resource)) return true;
    } else if (s !== undefined && (r === "*" || r === resource) && (s === "*" || s === subresource)) return true;
  }
  return false;
}

export function ruleMatches(rule: NamedRuleWithOperations, req: RuleRequest): boolean {
  if (!listed(rule.operations, req.operation)) return false;
  if (!listed(rule.apiGroups, req.group) || !listed(rule.apiVersions, req.version)) return false;
  if (!resourceListed(rule.resources, req.resource, req.subresource)) return false;
  const scope = rule.scope ?? "*";
  if (scope === "Cluster" && req.namespaced) return false;
  if (scope === "Namespaced" && !req.namespaced) return false;
  return rule.resourceNames === undefined || rule.resourceNames.length === 0 || rule.resourceNames.includes(req.name);
}

function selects(selector: LabelSelectorObject | undefined, labels: Labels | undefined): boolean {
  if (selector === undefined) return true;
  const parsed = labelSelectorFromObject(selector);
  return parsed.ok && parsed.selector.matches(labels ?? {});
}

function labelsOf(obj: Record<string, unknown> | undefined): Labels | undefined {
  const meta = obj?.metadata as { labels?: Labels } | undefined;
  return meta?.labels;
}

export interface MatchInput {
  attributes: AdmissionAttributes;
  /** The request at each version it could be matched at: its own first, then equivalent versions. */
  candidates: readonly RuleRequest[];
  /** Labels of the request's namespace (or of the Namespace object itself), undefined when cluster-scoped. */
  namespaceLabels: Labels | undefined;
}

/**
 * The request version `match` selects, or undefined when it does not apply. Rules match the request's own
 * version, or under Equivalent (the default) any equivalent version of the same resource.
 */
export function matchResources(match: MatchResources | undefined, input: MatchInput): RuleRequest | undefined {
  const own = input.candidates[0] as RuleRequest;
  if (match === undefined) return own;
  const { attributes } = input;
  if (input.namespaceLabels !== undefined && !selects(match.namespaceSelector, input.namespaceLabels)) {
    return undefined;
  }
  const objectSelector = match.objectSelector;
  if (
    objectSelector !== undefined &&
    !selects(objectSelector, labelsOf(attributes.object)) &&
    !selects(objectSelector, labelsOf(attributes.oldObject))
  ) {
    return undefined;
  }
  if ((match.excludeResourceRules ?? []).some((rule) => ruleMatches(rule, own))) return undefined;
  const rules = match.resourceRules;
  if (rules === undefined) return own;
  const candidates = match.matchPolicy === "Exact" ? [own] : input.candidates;
  return candidates.find((candidate) => rules.some((rule) => ruleMatches(rule, candidate)));
}
