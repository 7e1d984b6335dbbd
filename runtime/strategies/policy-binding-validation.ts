// What admission policy bindings (validating and mutating) share in kube's validation: the paramRef and
// the matchResources, worded and ordered as kube-apiserver reports them.
import { duplicate, type FieldError, forbidden, invalid, notSupported, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { type LabelSelectorObject, validateLabelSelector } from "../selection/label-selector-object.js";
import { pathSegmentErrors } from "../validation/name-formats.js";
import { asObject } from "../validation/walk.js";
import { validateRuleWithOperations } from "./webhook-configuration-rules.js";

const matchPolicies = ["Equivalent", "Exact"];
/** kube lists these two in this order, not sorted. */
const parameterNotFoundActions = ["Deny", "Allow"];

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** validateParamRef: a name or a selector (not both), and a parameterNotFoundAction. */
export function validateParamRef(paramRef: unknown, path: string): FieldError[] {
  if (paramRef === undefined || paramRef === null) return [];
  const ref = asObject(paramRef) ?? {};
  const errs: FieldError[] = [];
  const name = text(ref.name);
  const selector = ref.selector as LabelSelectorObject | null | undefined;
  const hasSelector = selector !== undefined && selector !== null;
  if (name !== "") {
    for (const msg of pathSegmentErrors(name)) errs.push(invalid(child(path, "name"), name, msg));
    if (hasSelector) errs.push(forbidden(child(path, "name"), "name and selector are mutually exclusive"));
  }
  if (hasSelector) {
    errs.push(...validateLabelSelector(selector, child(path, "selector")));
    if (name !== "") errs.push(forbidden(child(path, "selector"), "name and selector are mutually exclusive"));
  }
  if (name === "" && !hasSelector) errs.push(required(path, "one of name or selector must be specified"));
  const action = text(ref.parameterNotFoundAction);
  const actionPath = child(path, "parameterNotFoundAction");
  if (action === "") errs.push(required(actionPath));
  else if (!parameterNotFoundActions.includes(action)) {
    errs.push(notSupported(actionPath, action, parameterNotFoundActions));
  }
  return errs;
}

function validateNamedRule(rule: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const names = Array.isArray(rule.resourceNames) ? rule.resourceNames.map(text) : [];
  names.forEach((name, i) => {
    const at = index(child(path, "resourceNames"), i);
    for (const msg of pathSegmentErrors(name)) errs.push(invalid(at, name, msg));
    if (seen.has(name)) errs.push(duplicate(at, name));
    seen.add(name);
  });
  return [...errs, ...validateRuleWithOperations(rule, path)];
}

/** validateMatchResources: matchPolicy and both selectors are required (the schema defaults them), rules checked. */
export function validateMatchResources(matchResources: unknown, path: string): FieldError[] {
  if (matchResources === undefined || matchResources === null) return [];
  const match = asObject(matchResources) ?? {};
  const errs: FieldError[] = [];
  const policy = match.matchPolicy;
  if (policy === undefined || policy === null) errs.push(required(child(path, "matchPolicy")));
  else if (!matchPolicies.includes(text(policy))) {
    errs.push(notSupported(child(path, "matchPolicy"), text(policy), matchPolicies));
  }
  for (const selector of ["namespaceSelector", "objectSelector"]) {
    const value = match[selector] as LabelSelectorObject | null | undefined;
    if (value === undefined || value === null) errs.push(required(child(path, selector)));
    else errs.push(...validateLabelSelector(value, child(path, selector)));
  }
  for (const rules of ["resourceRules", "excludeResourceRules"]) {
    const list = Array.isArray(match[rules]) ? (match[rules] as unknown[]) : [];
    list.forEach((rule, i) => {
      errs.push(...validateNamedRule(asObject(rule) ?? {}, index(child(path, rules), i)));
    });
  }
  return errs;
}
