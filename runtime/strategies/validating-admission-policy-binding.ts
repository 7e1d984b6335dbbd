// ValidatingAdmissionPolicyBindings (admissionregistration.k8s.io/v1), validated as kube-apiserver
// validates them: a policy name, the paramRef and matchResources, and validation actions (at least one,
// known, unique, not Deny with Warn).
import { duplicate, type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { index } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { dnsSubdomainErrors } from "../validation/name-formats.js";
import { asObject } from "../validation/walk.js";
import { validateMatchResources, validateParamRef } from "./policy-binding-validation.js";

/** Sorted, as kube's "supported values" message prints its set. */
const validationActions = ["Audit", "Deny", "Warn"];

function validateActions(actions: readonly unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<unknown>();
  actions.forEach((action, i) => {
    if (!validationActions.includes(action as string))
      errs.push(notSupported(index(path, i), action, validationActions));
    if (seen.has(action)) errs.push(duplicate(index(path, i), action));
    seen.add(action);
  });
  if (seen.has("Deny") && seen.has("Warn")) {
    errs.push(
      invalid(
        path,
        actions,
        "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
      ),
    );
  }
  if (seen.size === 0) errs.push(required(path, "at least one validation action is required"));
  return errs;
}

export const strategy: Strategy = {
  // kube starts a binding's generation at 1 though bindings have no status.
  tracksGeneration: true,
  validate(obj: KubeObject): FieldError[] {
    const spec = asObject(obj.spec) ?? {};
    const errs: FieldError[] = [];
    const policyName = typeof spec.policyName === "string" ? spec.policyName : "";
    if (policyName === "") errs.push(required("spec.policyName"));
    else for (const msg of dnsSubdomainErrors(policyName)) errs.push(invalid("spec.policyName", policyName, msg));
    errs.push(...validateParamRef(spec.paramRef, "spec.paramRef"));
    errs.push(...validateMatchResources(spec.matchResources, "spec.matchResources"));
    errs.push(
      ...validateActions(Array.isArray(spec.validationActions) ? spec.validationActions : [], "spec.validationActions"),
    );
    return errs;
  },
};
