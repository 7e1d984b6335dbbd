// MutatingAdmissionPolicies (admissionregistration.k8s.io/v1), validated as kube-apiserver validates
// them: the shared policy checks (admission-policy-validation.ts) with only mutable operations in the
// resource rules, then mutations (a patch type with exactly its own patch, whose expression compiles with
// the mutation types to exactly `Object` or `list(JSONPatch)`) and the reinvocationPolicy.
import { compileMutationExpression, type PatchType } from "../admission/policy/mutating-compile-policy.js";
import { type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, listItems } from "../validation/walk.js";
import {
  matchConditionsUnchanged,
  PolicyExpressionCompiler,
  text,
  validatePolicyHead,
  validatePolicyMatchConditions,
  validateVariables,
} from "./admission-policy-validation.js";

/** kube's sets in their sorted order, as its "supported values" messages print them. */
const reinvocationPolicies = ["IfNeeded", "Never"];
const patchTypes = ["ApplyConfiguration", "JSONPatch"];
const mutatingOperations = ["*", "CONNECT", "CREATE", "UPDATE"];

const patchFields: Record<PatchType, { field: string; other: string; otherField: string }> = {
  ApplyConfiguration: { field: "applyConfiguration", other: "JSONPatch", otherField: "jsonPatch" },
  JSONPatch: { field: "jsonPatch", other: "ApplyConfiguration", otherField: "applyConfiguration" },
};

function validateOperations(matchConstraints: unknown): FieldError[] {
  const errs: FieldError[] = [];
  for (const rule of listItems(asObject(matchConstraints)?.resourceRules)) {
    for (const op of listItems(asObject(rule)?.operations)) {
      if (!mutatingOperations.includes(text(op))) {
        errs.push(notSupported("spec.matchConstraints.resourceRules.operations", op, mutatingOperations));
      }
    }
  }
  return errs;
}

function validateMutation(
  mutation: Record<string, unknown>,
  compiler: PolicyExpressionCompiler,
  path: string,
): FieldError[] {
  const patchType = text(mutation.patchType);
  if (patchType === "") return [required(child(path, "patchType"))];
  if (patchType !== "ApplyConfiguration" && patchType !== "JSONPatch") {
    return [notSupported(child(path, "patchType"), mutation.patchType, patchTypes)];
  }
  const { field, otherField } = patchFields[patchType];
  const errs: FieldError[] = [];
  const patch = mutation[field];
  if (patch === undefined || patch === null) {
    errs.push(required(child(path, field), `must be specified when patchType is ${patchType}`));
  } else {
    const expression = text(asObject(patch)?.expression).trim();
    const expressionPath = child(child(path, field), "expression");
    if (expression === "") errs.push(required(expressionPath));
    else {
      const { problem } = compileMutationExpression(compiler.mutationEnvironment(), expression, patchType);
      if (problem !== undefined) errs.push(invalid(expressionPath, expression, problem));
    }
  }
  if (mutation[otherField] !== undefined && mutation[otherField] !== null) {
    errs.push(
      invalid(child(path, otherField), `{${otherField}}`, `must not be specified when patchType is ${patchType}`),
    );
  }
  return errs;
}

function validateSpec(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = asObject(obj.spec) ?? {};
  const errs = validatePolicyHead(spec, "spec");
  if (spec.matchConstraints !== undefined && spec.matchConstraints !== null) {
    errs.push(...validateOperations(spec.matchConstraints));
  }
  if (old === undefined || !matchConditionsUnchanged(spec, asObject(old.spec) ?? {})) {
    errs.push(...validatePolicyMatchConditions(spec, "spec.matchConditions"));
  }
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  // Variables always compose in a mutating policy, so `variables` is declared even without any.
  const compiler = new PolicyExpressionCompiler(hasParams, true);
  errs.push(...validateVariables(listItems(spec.variables), compiler, "spec.variables"));
  const mutations = listItems(spec.mutations);
  if (mutations.length === 0) errs.push(required("spec.mutations", "mutations must contain at least one item"));
  mutations.forEach((item, i) => {
    errs.push(...validateMutation(asObject(item) ?? {}, compiler, index("spec.mutations", i)));
  });
  const reinvocationPolicy = text(spec.reinvocationPolicy);
  if (reinvocationPolicy === "") errs.push(required("spec.reinvocationPolicy"));
  else if (!reinvocationPolicies.includes(reinvocationPolicy)) {
    errs.push(notSupported("spec.reinvocationPolicy", reinvocationPolicy, reinvocationPolicies));
  }
  return errs;
}

export const strategy: Strategy = {
  // kube starts a policy's generation at 1 though MutatingAdmissionPolicies have no status.
  tracksGeneration: true,
  validate(obj: KubeObject, old?: KubeObject): FieldError[] {
    return validateSpec(obj, old);
  },
};
