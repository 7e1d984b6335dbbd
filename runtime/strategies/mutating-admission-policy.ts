// MutatingAdmissionPolicies (admissionregistration.k8s.io/v1): kube's ValidateMutatingAdmissionPolicy for
// the spec's own fields — failurePolicy, matchConstraints with at least one resource rule and only
// mutable operations, mutations and their patch types, reinvocationPolicy — and every expression compiled
// in the admission environment (mutations with the mutation types and their result types).
import { compilePolicy } from "../admission/policy/compile-policy.js";
import {
  compileMutationExpression,
  type MutatingPolicySpec,
  mutationEnvironment,
} from "../admission/policy/mutating-compile-policy.js";
import { admissionPolicyEnvironment } from "../admission/policy/policy-environment.js";
import { type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";

const failurePolicies = ["Fail", "Ignore"];
const reinvocationPolicies = ["IfNeeded", "Never"];
const patchTypes = ["ApplyConfiguration", "JSONPatch"];
const mutatingOperations = ["*", "CONNECT", "CREATE", "UPDATE"];

function validateSpec(spec: MutatingPolicySpec): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.failurePolicy === undefined) errs.push(required("spec.failurePolicy"));
  else if (!failurePolicies.includes(spec.failurePolicy)) {
    errs.push(notSupported("spec.failurePolicy", spec.failurePolicy, failurePolicies));
  }
  if (spec.matchConstraints === undefined) errs.push(required("spec.matchConstraints"));
  else {
    const rules = spec.matchConstraints.resourceRules ?? [];
    if (rules.length === 0) errs.push(required("spec.matchConstraints.resourceRules"));
    for (const rule of rules) {
      for (const op of rule.operations ?? []) {
        if (!mutatingOperations.includes(op)) {
          errs.push(notSupported("spec.matchConstraints.resourceRules.operations", op, mutatingOperations));
        }
      }
    }
  }
  const compiled = compilePolicy(
    {
      ...(spec.matchConditions === undefined ? {} : { matchConditions: spec.matchConditions }),
      ...(spec.variables === undefined ? {} : { variables: spec.variables }),
    },
    admissionPolicyEnvironment(),
  );
  const report = (path: string, source: string, problem: string | undefined) => {
    if (problem !== undefined) errs.push(invalid(path, source, problem));
  };
  compiled.matchConditions.forEach((c, i) => {
    report(`spec.matchConditions[${i}].expression`, c.expression.source, c.expression.problem);
  });
  compiled.variables.forEach((v, i) => {
    report(`spec.variables[${i}].expression`, v.expression.source, v.expression.problem);
  });
  const mutations = spec.mutations ?? [];
  if (mutations.length === 0) errs.push(required("spec.mutations", "mutations must contain at least one item"));
  const env = mutationEnvironment(admissionPolicyEnvironment(), compiled.variablesType);
  mutations.forEach((mutation, i) => {
    const path = `spec.mutations[${i}]`;
    const check = (field: "applyConfiguration" | "jsonPatch", patchType: "ApplyConfiguration" | "JSONPatch") => {
      const expression = (mutation[field]?.expression ?? "").trim();
      if (expression === "") {
        errs.push(required(`${path}.${field}.expression`));
        return;
      }
      const result = compileMutationExpression(env, expression, patchType);
      report(`${path}.${field}.expression`, expression, result.problem);
    };
    if (mutation.patchType === undefined || mutation.patchType === "") errs.push(required(`${path}.patchType`));
    else if (mutation.patchType === "JSONPatch") {
      if (mutation.jsonPatch === undefined) {
        errs.push(required(`${path}.jsonPatch`, "must be specified when patchType is JSONPatch"));
      } else check("jsonPatch", "JSONPatch");
      if (mutation.applyConfiguration !== undefined) {
        errs.push(
          invalid(
            `${path}.applyConfiguration`,
            "{applyConfiguration}",
            "must not be specified when patchType is JSONPatch",
          ),
        );
      }
    } else if (mutation.patchType === "ApplyConfiguration") {
      if (mutation.applyConfiguration === undefined) {
        errs.push(required(`${path}.applyConfiguration`, "must be specified when patchType is ApplyConfiguration"));
      } else check("applyConfiguration", "ApplyConfiguration");
      if (mutation.jsonPatch !== undefined) {
        errs.push(
          invalid(`${path}.jsonPatch`, "{jsonPatch}", "must not be specified when patchType is ApplyConfiguration"),
        );
      }
    } else errs.push(notSupported(`${path}.patchType`, mutation.patchType, patchTypes));
  });
  if (spec.reinvocationPolicy === undefined || spec.reinvocationPolicy === "") {
    errs.push(required("spec.reinvocationPolicy"));
  } else if (!reinvocationPolicies.includes(spec.reinvocationPolicy)) {
    errs.push(notSupported("spec.reinvocationPolicy", spec.reinvocationPolicy, reinvocationPolicies));
  }
  return errs;
}

export const strategy: Strategy = {
  validate(obj: KubeObject): FieldError[] {
    return validateSpec((obj.spec ?? {}) as MutatingPolicySpec);
  },
};
