// MutatingAdmissionPolicyBindings (admissionregistration.k8s.io/v1): kube's
// ValidateMutatingAdmissionPolicyBinding — a policy name, the paramRef and matchResources as validating
// bindings have them, and only the operations a mutation can act on in matchResources.
import { type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { dnsSubdomainErrors } from "../validation/name-formats.js";
import { validateMatchResources, validateParamRef } from "./policy-binding-validation.js";

const mutatingOperations = ["*", "CONNECT", "CREATE", "UPDATE"];

interface BindingSpec {
  policyName?: string;
  paramRef?: unknown;
  matchResources?: { resourceRules?: { operations?: string[] }[] };
}

export const strategy: Strategy = {
  // kube starts a binding's generation at 1 though bindings have no status.
  tracksGeneration: true,
  validate(obj: KubeObject): FieldError[] {
    const spec = (obj.spec ?? {}) as BindingSpec;
    const errs: FieldError[] = [];
    if (spec.policyName === undefined || spec.policyName === "") errs.push(required("spec.policyName"));
    else {
      for (const message of dnsSubdomainErrors(spec.policyName))
        errs.push(invalid("spec.policyName", spec.policyName, message));
    }
    errs.push(...validateParamRef(spec.paramRef, "spec.paramRef"));
    errs.push(...validateMatchResources(spec.matchResources, "spec.matchResources"));
    for (const rule of spec.matchResources?.resourceRules ?? []) {
      for (const op of rule.operations ?? []) {
        if (!mutatingOperations.includes(op)) {
          errs.push(notSupported("spec.matchResources.resourceRules.operations", op, mutatingOperations));
        }
      }
    }
    return errs;
  },
};
