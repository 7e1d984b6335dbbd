// ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1): every expression must compile in the
// admission environment, and a policy needs validations or audit annotations, as kube validates them.
import { compilePolicy } from "../admission/policy/compile-policy.js";
import { admissionPolicyEnvironment } from "../admission/policy/policy-environment.js";
import { type FieldError, invalid, required } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";

interface Spec {
  validations?: { expression?: string; messageExpression?: string }[];
  auditAnnotations?: { valueExpression?: string }[];
  matchConditions?: { expression?: string }[];
  variables?: { expression?: string }[];
}

export const strategy: Strategy = {
  validate(obj: KubeObject): FieldError[] {
    const spec = (obj.spec ?? {}) as Spec;
    const errs: FieldError[] = [];
    if ((spec.validations ?? []).length === 0 && (spec.auditAnnotations ?? []).length === 0) {
      errs.push(required("spec.validations", "validations or auditAnnotations must contain at least one item"));
    }
    const compiled = compilePolicy(spec, admissionPolicyEnvironment());
    const report = (path: string, source: string | undefined, problem: string | undefined) => {
      if (problem !== undefined) errs.push(invalid(path, source ?? "", problem));
    };
    compiled.matchConditions.forEach((c, i) => {
      report(`spec.matchConditions[${i}].expression`, c.expression.source, c.expression.problem);
    });
    compiled.variables.forEach((v, i) => {
      report(`spec.variables[${i}].expression`, v.expression.source, v.expression.problem);
    });
    compiled.validations.forEach((v, i) => {
      report(`spec.validations[${i}].expression`, v.expression.source, v.expression.problem);
      report(`spec.validations[${i}].messageExpression`, v.messageExpression?.source, v.messageExpression?.problem);
    });
    compiled.auditAnnotations.forEach((a, i) => {
      report(`spec.auditAnnotations[${i}].valueExpression`, a.valueExpression.source, a.valueExpression.problem);
    });
    return errs;
  },
};
