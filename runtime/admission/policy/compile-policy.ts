// A ValidatingAdmissionPolicy's expressions compiled once per policy generation: match conditions,
// variables (each may use the ones before it through `variables`), validations with their messages,
// and audit annotations. A problem compiling an expression is kept with it and reported when the
// expression would run, as kube-apiserver reports it under the policy's failurePolicy.
import type { CheckedAst } from "../../cel/common/ast.js";
import {
  BoolType,
  type CelType,
  DynType,
  type FieldDecl,
  formatType,
  NullType,
  objectType,
  StringType,
} from "../../cel/common/cel-types.js";
import type { VariableDecl } from "../../cel/common/decls.js";
import type { Program } from "../../cel/common/evaluation.js";
import { CelIssues } from "../../cel/common/issues.js";
import type { CelEnv } from "../../cel/env.js";
import { authorizerVariables } from "../../cel/library/kubernetes/authorizer-library.js";
import type { MatchResources } from "./match-resources.js";
import { admissionRequestType } from "./request-variable.js";

/** kube's PerCallLimit: the run-time cost one expression may spend. */
export const perCallCostLimit = 1_000_000;

export interface CompiledExpression {
  readonly source: string;
  readonly program?: Program;
  /** Why the expression cannot run: `compilation failed: ERROR: <input>:1:1: …`. */
  readonly problem?: string;
  readonly type?: CelType;
}

export interface PolicySpec {
  matchConstraints?: MatchResources;
  paramKind?: { apiVersion?: string; kind?: string };
  matchConditions?: { name?: string; expression?: string }[];
  variables?: { name?: string; expression?: string }[];
  validations?: { expression?: string; message?: string; messageExpression?: string; reason?: string }[];
  auditAnnotations?: { key?: string; valueExpression?: string }[];
  failurePolicy?: string;
}

export interface CompiledValidation {
  readonly expression: CompiledExpression;
  readonly message?: string;
  readonly messageExpression?: CompiledExpression;
  readonly reason?: string;
}

export interface CompiledPolicy {
  readonly failurePolicy: "Fail" | "Ignore";
  readonly matchConditions: readonly { name: string; expression: CompiledExpression }[];
  readonly variables: readonly { name: string; expression: CompiledExpression }[];
  readonly variablesType: CelType;
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly { key: string; valueExpression: CompiledExpression }[];
}

/** Which results an expression may have; anything else is a compile-time problem. */
type Expected = readonly CelType[] | undefined;

function accepts(expected: Expected, type: CelType): boolean {
  if (expected === undefined || type.kind === "dyn") return true;
  return expected.some((t) => t.kind === type.kind);
}

export function compileExpression(
  env: CelEnv,
  source: string,
  expected: Expected,
  costLimit = perCallCostLimit,
): CompiledExpression {
  const checked = env.compile(source);
  if (checked instanceof CelIssues) {
    return { source, problem: `compilation failed: ${checked.toDisplayString()}` };
  }
  const type = (checked as CheckedAst).types.get(checked.expr.id) ?? DynType;
  if (!accepts(expected, type)) {
    const want = (expected ?? []).map(formatType).join(" or ");
    return {
      source,
      problem: `compilation failed: cel expression must evaluate to ${want} but got ${formatType(type)}`,
    };
  }
  return { source, program: env.program(checked, { costLimit }), type };
}

export interface PolicyEnvironment {
  /** The base environment with Kubernetes' libraries, without variables. */
  readonly base: CelEnv;
}

/** The variables every admission expression sees; `variables` is typed from the ones compiled so far. */
export function admissionDeclarations(variablesType: CelType, withAuthorizer: boolean): VariableDecl[] {
  const decls: VariableDecl[] = [
    { name: "object", type: DynType },
    { name: "oldObject", type: DynType },
    { name: "request", type: admissionRequestType },
    { name: "params", type: DynType },
    { name: "namespaceObject", type: DynType },
    { name: "variables", type: variablesType },
  ];
  if (withAuthorizer) decls.push(...authorizerVariables);
  return decls;
}

export function compilePolicy(spec: PolicySpec, environment: PolicyEnvironment): CompiledPolicy {
  const fields = new Map<string, FieldDecl>();
  const variablesType = objectType("kubernetes.variables", fields);
  // One environment serves every expression: `variables` is typed by the fields map, which gains each
  // variable as it is compiled, so a variable sees only the ones before it.
  const env = environment.base.extend(admissionDeclarations(variablesType, true));
  const variables: { name: string; expression: CompiledExpression }[] = [];
  for (const v of spec.variables ?? []) {
    const expression = compileExpression(env, v.expression ?? "", undefined);
    const name = v.name ?? "";
    fields.set(name, { type: expression.type ?? DynType });
    variables.push({ name, expression });
  }
  const messageEnv = environment.base.extend(admissionDeclarations(variablesType, false));
  return {
    failurePolicy: spec.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    matchConditions: (spec.matchConditions ?? []).map((c) => ({
      name: c.name ?? "",
      expression: compileExpression(env, c.expression ?? "", [BoolType]),
    })),
    variables,
    variablesType,
    validations: (spec.validations ?? []).map((v) => ({
      expression: compileExpression(env, v.expression ?? "", [BoolType]),
      ...(v.message === undefined ? {} : { message: v.message }),
      ...(v.messageExpression === undefined || v.messageExpression === ""
        ? {}
        : { messageExpression: compileExpression(messageEnv, v.messageExpression, [StringType]) }),
      ...(v.reason === undefined ? {} : { reason: v.reason }),
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({
      key: a.key ?? "",
      valueExpression: compileExpression(env, a.valueExpression ?? "", [StringType, NullType]),
    })),
  };
}
