// A MutatingAdmissionPolicy's expressions compiled once per policy generation: match conditions and
// variables as a validating policy compiles them, and each mutation's expression in the environment with
// the mutation types (`Object…`, `JSONPatch`, jsonpatch.escapeKey), whose result must be exactly `Object`
// (ApplyConfiguration) or `list(JSONPatch)` (JSONPatch), as kube-apiserver's mutating compiler checks it.

import { formatCheckedType } from "../../cel/checker/format-type.js";
import type { CheckedAst } from "../../cel/common/ast.js";
import { type CelType, DynType, listType } from "../../cel/common/cel-types.js";
import { CelIssues } from "../../cel/common/issues.js";
import { CelEnv } from "../../cel/env.js";
import { jsonPatchType, mutationLibrary, objectTypeName } from "../../cel/library/kubernetes/mutation-library.js";
import {
  admissionDeclarations,
  type CompiledExpression,
  type CompiledPolicy,
  compilePolicy,
  type PolicyEnvironment,
  perCallCostLimit,
} from "./compile-policy.js";
import type { MatchResources } from "./match-resources.js";

export type PatchType = "ApplyConfiguration" | "JSONPatch";

export interface MutationSpec {
  patchType?: string;
  applyConfiguration?: { expression?: string };
  jsonPatch?: { expression?: string };
}

export interface MutatingPolicySpec {
  paramKind?: { apiVersion?: string; kind?: string };
  matchConstraints?: MatchResources;
  variables?: { name?: string; expression?: string }[];
  mutations?: MutationSpec[];
  failurePolicy?: string;
  reinvocationPolicy?: string;
  matchConditions?: { name?: string; expression?: string }[];
}

export interface CompiledMutation {
  readonly patchType: PatchType;
  readonly expression: CompiledExpression;
}

export interface CompiledMutatingPolicy {
  readonly failurePolicy: "Fail" | "Ignore";
  readonly reinvocationPolicy: "Never" | "IfNeeded";
  readonly matchConditions: CompiledPolicy["matchConditions"];
  readonly variables: CompiledPolicy["variables"];
  readonly variablesType: CelType;
  /** One per mutation of the spec; undefined where the mutation names no expression of its patch type. */
  readonly mutations: readonly (CompiledMutation | undefined)[];
}

const applyConfigurationResult: CelType = { kind: "object", name: objectTypeName, fields: new Map() };
const jsonPatchResult: CelType = listType(jsonPatchType);

/** The expression a mutation runs, by its patch type. */
export function mutationExpression(mutation: MutationSpec): { patchType: PatchType; source: string } | undefined {
  if (mutation.patchType === "ApplyConfiguration" && mutation.applyConfiguration !== undefined) {
    return { patchType: "ApplyConfiguration", source: mutation.applyConfiguration.expression ?? "" };
  }
  if (mutation.patchType === "JSONPatch" && mutation.jsonPatch !== undefined) {
    return { patchType: "JSONPatch", source: mutation.jsonPatch.expression ?? "" };
  }
  return undefined;
}

/** The admission environment with the mutation library, `variables` typed as `variablesType`. */
export function mutationEnvironment(environment: PolicyEnvironment, variablesType: CelType): CelEnv {
  const base = environment.base.options;
  return new CelEnv({ ...base, libraries: [...base.libraries, mutationLibrary] }).extend(
    admissionDeclarations(variablesType, true),
  );
}

/** A mutation expression: compiled, or the problem kube reports for it (`must evaluate to Object but got …`). */
export function compileMutationExpression(env: CelEnv, source: string, patchType: PatchType): CompiledExpression {
  const checked = env.compile(source);
  if (checked instanceof CelIssues) return { source, problem: `compilation failed: ${checked.toDisplayString()}` };
  const type = (checked as CheckedAst).types.get(checked.expr.id) ?? DynType;
  const expected = formatCheckedType(patchType === "JSONPatch" ? jsonPatchResult : applyConfigurationResult);
  const actual = formatCheckedType(type);
  if (actual !== expected) return { source, problem: `must evaluate to ${expected} but got ${actual}` };
  return { source, program: env.program(checked, { costLimit: perCallCostLimit }), type };
}

export function compileMutatingPolicy(
  spec: MutatingPolicySpec,
  environment: PolicyEnvironment,
): CompiledMutatingPolicy {
  const shared = compilePolicy(
    {
      ...(spec.matchConditions === undefined ? {} : { matchConditions: spec.matchConditions }),
      ...(spec.variables === undefined ? {} : { variables: spec.variables }),
    },
    environment,
  );
  const env = mutationEnvironment(environment, shared.variablesType);
  return {
    failurePolicy: spec.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    reinvocationPolicy: spec.reinvocationPolicy === "IfNeeded" ? "IfNeeded" : "Never",
    matchConditions: shared.matchConditions,
    variables: shared.variables,
    variablesType: shared.variablesType,
    mutations: (spec.mutations ?? []).map((mutation) => {
      const named = mutationExpression(mutation);
      if (named === undefined) return undefined;
      return { patchType: named.patchType, expression: compileMutationExpression(env, named.source, named.patchType) };
    }),
  };
}
