// Privilege escalation checks (kube's ConfirmNoEscalation and Covers): a user may grant only rules that
// the rules they hold cover. Each granted rule is broken into single-verb, single-resource,
// single-name rules, and each of those must be covered by one held rule: `*` covers any verb, group or
// resource, `*/<sub>` any resource's subresource, a rule without names any name (a rule with names only
// those), and a URL ending in `*` every path it prefixes. What is missing is compacted and listed in
// kube's words.
import type { UserInfo } from "../../access/user-info.js";
import { aggregateMessage } from "../../errors/aggregate.js";
import { goQuote } from "../../errors/go-format.js";
import type { PolicyRule } from "./rule-matches.js";
import { type ResolvedRules, resolutionMessage } from "./rule-resolver.js";

const all = "*";

/** Rules with at most one verb, group, resource and name (or one verb and one URL). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        const base = { apiGroups: [group], resources: [resource], verbs: [verb] };
        if (names.length === 0) out.push(base);
        else for (const name of names) out.push({ ...base, resourceNames: [name] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function hasAll(set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  const owned = new Set(set ?? []);
  return (wanted ?? []).every((w) => owned.has(w));
}

function listCovers(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  return (owner ?? []).includes(all) || hasAll(owner, wanted);
}

function resourcesCover(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (listCovers(owner, wanted)) return true;
  const owned = owner ?? [];
  return (wanted ?? []).every((resource) => {
    if (owned.includes(resource)) return true;
    const slash = resource.indexOf("/");
    return slash >= 0 && owned.includes(`*/${resource.slice(slash + 1)}`);
  });
}

function urlCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith("*") && path.startsWith(owner.replace(/\*+$/, "")));
}

function urlsCover(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  return (wanted ?? []).every((path) => (owner ?? []).some((o) => urlCovers(o, path)));
}

function namesCover(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if ((owner ?? []).length === 0) return true;
  return (wanted ?? []).length > 0 && hasAll(owner, wanted);
}

/** Whether `owner` covers a rule from breakdownRule. */
export function ruleCovers(owner: PolicyRule, subrule: PolicyRule): boolean {
  return (
    listCovers(owner.verbs, subrule.verbs) &&
    listCovers(owner.apiGroups, subrule.apiGroups) &&
    resourcesCover(owner.resources, subrule.resources) &&
    urlsCover(owner.nonResourceURLs, subrule.nonResourceURLs) &&
    namesCover(owner.resourceNames, subrule.resourceNames)
  );
}

/** The broken-down rules of `servant` that no rule of `owner` covers; none when covered. */
export function uncoveredRules(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdownRule).filter((subrule) => !owner.some((rule) => ruleCovers(rule, subrule)));
}

/** A rule of one group, one resource, at most one name and nothing else: its key, else undefined. */
function simpleResourceKey(rule: PolicyRule): string | undefined {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs ?? []).length > 0) return undefined;
  if ((rule.apiGroups ?? []).length !== 1 || (rule.resources ?? []).length !== 1) return undefined;
  return JSON.stringify([rule.apiGroups, rule.resources, names.length === 0 ? null : names[0]]);
}

/** kube's CompactRules: simple rules that differ only in their verb become one rule with every verb. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleResourceKey(rule);
    const existing = key === undefined ? undefined : simple.get(key);
    if (key === undefined) compacted.push(rule);
    else if (existing !== undefined) existing.verbs = [...(existing.verbs ?? []), ...(rule.verbs ?? [])];
    else simple.set(key, { ...rule, verbs: [...(rule.verbs ?? [])] });
  }
  return [...compacted, ...simple.values()];
}

/** Go's `%q` of a []string: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(" ")}]`;
}

/** kube's CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(rule: PolicyRule): string {
  const fields: [string, readonly string[] | undefined][] = [
    ["APIGroups", rule.apiGroups],
    ["Resources", rule.resources],
    ["NonResourceURLs", rule.nonResourceURLs],
    ["ResourceNames", rule.resourceNames],
    ["Verbs", rule.verbs],
  ];
  const parts = fields.filter(([, v]) => (v ?? []).length > 0).map(([k, v]) => `${k}:${goQuoteList(v ?? [])}`);
  return `{${parts.join(", ")}}`;
}

/**
 * Why granting `rules` is an escalation for `user`, whose own rules are `held` (resolved from storage),
 * in kube's words; undefined when the held rules cover them.
 */
export function escalationMessage(
  user: UserInfo,
  held: ResolvedRules,
  rules: readonly PolicyRule[],
): string | undefined {
  const missing = uncoveredRules(held.rules, rules);
  if (missing.length === 0) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let message =
    `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions ` +
    `not currently held:\n${descriptions.join("\n")}`;
  if (held.errors.length > 0) {
    message += `; resolution errors: [${aggregateMessage(held.errors.map((e) => resolutionMessage(e, "storage")))}]`;
  }
  return message;
}
