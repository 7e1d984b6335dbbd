// A webhook's rules (RuleWithOperations) as kube-apiserver validates them: operations from a closed set
// with `*` alone, API groups and versions with `*` alone, resources with subresource wildcards
// (`x/*`, `*/x`, `*/*`) that may not overlap, and the scope.
import { type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";

/** kube's lists in its sorted order, as its "supported values" messages print them. */
const operations = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const scopes = ["*", "Cluster", "Namespaced"];

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map((v) => (typeof v === "string" ? v : String(v))) : [];
}

function validateResources(resources: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const wildcardSubresourceOf = new Set<string>();
  const wildcardResourceOf = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let resourceWithoutSubresource = false;
  resources.forEach((entry, i) => {
    if (entry === "") {
      errs.push(required(index(path, i)));
      return;
    }
    if (entry === "*/*") doubleWildcard = true;
    if (entry === "*") singleWildcard = true;
    const slash = entry.indexOf("/");
    if (slash < 0) {
      // kube keeps only the last plain entry's answer here, not whether any was plain.
      resourceWithoutSubresource = entry !== "*";
      return;
    }
    const resource = entry.slice(0, slash);
    const subresource = entry.slice(slash + 1);
    if (wildcardSubresourceOf.has(resource)) {
      errs.push(invalid(index(path, i), entry, `if '${resource}/*' is present, must not specify ${entry}`));
    }
    if (wildcardResourceOf.has(subresource)) {
      errs.push(invalid(index(path, i), entry, `if '*/${subresource}' is present, must not specify ${entry}`));
    }
    if (subresource === "*") wildcardSubresourceOf.add(resource);
    if (resource === "*") wildcardResourceOf.add(subresource);
  });
  if (resources.length > 1 && doubleWildcard) {
    errs.push(invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  }
  if (singleWildcard && resourceWithoutSubresource) {
    errs.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  }
  return errs;
}

/** validateRuleWithOperations at `path` (`webhooks[0].rules[1]`). */
export function validateRuleWithOperations(rule: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strings(rule.operations);
  const opsPath = child(path, "operations");
  if (ops.length === 0) errs.push(required(opsPath));
  if (ops.length > 1 && ops.includes("*")) {
    errs.push(invalid(opsPath, ops, "if '*' is present, must not specify other operations"));
  }
  ops.forEach((op, i) => {
    if (!operations.includes(op)) errs.push(notSupported(index(opsPath, i), op, operations));
  });
  const groups = strings(rule.apiGroups);
  const groupsPath = child(path, "apiGroups");
  if (groups.length === 0) errs.push(required(groupsPath));
  if (groups.length > 1 && groups.includes("*")) {
    errs.push(invalid(groupsPath, groups, "if '*' is present, must not specify other API groups"));
  }
  const versions = strings(rule.apiVersions);
  const versionsPath = child(path, "apiVersions");
  if (versions.length === 0) errs.push(required(versionsPath));
  if (versions.length > 1 && versions.includes("*")) {
    errs.push(invalid(versionsPath, versions, "if '*' is present, must not specify other API versions"));
  }
  versions.forEach((version, i) => {
    if (version === "") errs.push(required(index(versionsPath, i)));
  });
  errs.push(...validateResources(strings(rule.resources), child(path, "resources")));
  if (typeof rule.scope === "string" && !scopes.includes(rule.scope)) {
    errs.push(notSupported(child(path, "scope"), rule.scope, scopes));
  }
  return errs;
}
