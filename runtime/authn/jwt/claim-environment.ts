// The two CEL environments of JWT authenticators (k8s.io/apiserver/pkg/authentication/cel): claim
// mappings and claim validation rules see `claims` (the token's claims, map(string, dyn)); user
// validation rules see `user` (kubernetes.UserInfo: username, uid, groups, extra). Both extend kube's
// base environment. Compilation answers kube's texts: `compilation failed: ERROR: <input>:…` or
// `must evaluate to bool`.

import type { UserInfo } from "../../access/user-info.js";
import type { CheckedAst, Expr } from "../../cel/common/ast.js";
import {
  BoolType,
  type CelType,
  DynType,
  type FieldDecl,
  listType,
  mapType,
  objectType,
  StringType,
} from "../../cel/common/cel-types.js";
import type { Program } from "../../cel/common/evaluation.js";
import { CelIssues } from "../../cel/common/issues.js";
import { jsonToCel } from "../../cel/common/json-to-cel.js";
import { type CelValue, isError } from "../../cel/common/values.js";
import type { CelEnv } from "../../cel/env.js";
import { kubernetesBaseEnv } from "../../cel/rules/base-environment.js";
import { perCallLimit } from "../../cel/rules/limits.js";

const field = (type: CelType): FieldDecl => ({ type });

/** kube's buildUserType. */
export const userInfoType = objectType(
  "kubernetes.UserInfo",
  new Map([
    ["username", field(StringType)],
    ["uid", field(StringType)],
    ["groups", field(listType(StringType))],
    ["extra", field(mapType(StringType, listType(StringType)))],
  ]),
);

const claimsType = mapType(StringType, DynType);

export type ExpressionVariable = "claims" | "user";

const environments = new Map<ExpressionVariable, CelEnv>();

function environment(variable: ExpressionVariable): CelEnv {
  let env = environments.get(variable);
  if (env === undefined) {
    const type = variable === "claims" ? claimsType : userInfoType;
    env = kubernetesBaseEnv().extend([{ name: variable, type }]);
    environments.set(variable, env);
  }
  return env;
}

export interface CompiledClaimExpression {
  readonly source: string;
  readonly ast: CheckedAst;
  readonly program: Program;
  readonly variable: ExpressionVariable;
}

/**
 * Compiles an expression over `claims` or `user`. `bool` results are required of validation rules;
 * mappings take any type and are checked when they run. A failure is kube's field error detail.
 */
export function compileClaimExpression(
  source: string,
  variable: ExpressionVariable,
  result: "bool" | "any",
): CompiledClaimExpression | { detail: string } {
  const env = environment(variable);
  const ast = env.compile(source);
  if (ast instanceof CelIssues) return { detail: `compilation failed: ${ast.toDisplayString()}` };
  // cel-go compares the output type exactly: a dyn result (any claim) is not a bool.
  if (result === "bool" && ast.types.get(ast.expr.id)?.kind !== BoolType.kind) {
    return { detail: "must evaluate to bool" };
  }
  return { source, ast, variable, program: env.program(ast, { costLimit: perCallLimit }) };
}

function isIdent(expr: Expr | undefined, name: string): boolean {
  return expr?.kind === "ident" && expr.name === name;
}

/**
 * Whether the expression reads `claims.<name>` (also `has(claims.<name>)` and `claims.?<name>`), kube's
 * hasSelectExp: how the email_verified rule knows which claims a configuration looks at.
 */
export function selectsClaim(expr: Expr | undefined, name: string): boolean {
  if (expr === undefined) return false;
  switch (expr.kind) {
    case "select":
      return (isIdent(expr.operand, "claims") && expr.field === name) || selectsClaim(expr.operand, name);
    case "call": {
      const [first, second] = expr.args;
      if (
        expr.target === undefined &&
        expr.function === "_?._" &&
        isIdent(first, "claims") &&
        second?.kind === "const" &&
        second.value === name
      ) {
        return true;
      }
      return expr.args.some((arg) => selectsClaim(arg, name)) || selectsClaim(expr.target, name);
    }
    case "list":
      return expr.elements.some((e) => selectsClaim(e, name));
    case "map":
      return expr.entries.some((e) => selectsClaim(e.key, name) || selectsClaim(e.value, name));
    case "struct":
      return expr.fields.some((f) => selectsClaim(f.value, name));
    case "comprehension":
      return [expr.iterRange, expr.accuInit, expr.loopCondition, expr.loopStep, expr.result].some((e) =>
        selectsClaim(e, name),
      );
    default:
      return false;
  }
}

/** The `user` value kube builds for user validation rules: absent fields as empty values. */
export function userValue(user: UserInfo): CelValue {
  return jsonToCel({ username: user.name, uid: user.uid ?? "", groups: user.groups, extra: user.extra ?? {} });
}

/** Runs an expression; a run-time error becomes kube's `expression '<source>' resulted in error: …`. */
export function evaluateClaimExpression(
  expression: CompiledClaimExpression,
  value: CelValue,
): { value: CelValue } | { error: string } {
  const result = expression.program.eval((name) => (name === expression.variable ? value : undefined));
  if (isError(result.value)) {
    return { error: `expression '${expression.source}' resulted in error: ${result.value.message}` };
  }
  return { value: result.value };
}
