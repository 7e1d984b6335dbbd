// Compiles the x-kubernetes-validations rules of one schema node, as the apiextensions server's
// Compile: `self` (and `oldSelf`, optional for rules with optionalOldSelf) typed from the node's schema
// under a fresh type name, each rule checked to be a bool, its messageExpression a string, its
// fieldPath normalized; worst-case costs estimated for the write-time limits.
import type { CheckedAst } from "../common/ast.js";
import { BoolType, type CelType, DynType, optionalType, StringType, sameType } from "../common/cel-types.js";
import type { Program } from "../common/evaluation.js";
import { CelIssues } from "../common/issues.js";
import type { CelEnv } from "../env.js";
import { kubernetesBaseEnv } from "./base-environment.js";
import { perCallLimit as defaultPerCallLimit } from "./limits.js";
import { estimateMaxCost } from "./rule-cost.js";
import { validFieldPath } from "./rule-field-path.js";
import { type DeclType, declTypeOf, maxCardinality } from "./schema-types.js";
import type { StructuralSchema, ValidationRule } from "./structural-schema.js";

export const selfVariable = "self";
export const oldSelfVariable = "oldSelf";

/** One rule after compilation. Neither program nor error: the rule is empty and never runs. */
export interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program?: Program;
  /** Why the rule cannot run (`compilation failed: …`, `cel expression must evaluate to a bool`). */
  readonly error?: string;
  /** The rule reads oldSelf: a transition rule, run only when there is an old value (unless optionalOldSelf). */
  readonly usesOldSelf: boolean;
  /** Worst-case cost of one evaluation. */
  readonly maxCost: number;
  /** How many times the rule could run in one request when nothing above bounds it. */
  readonly maxCardinality: number;
  readonly messageExpression?: Program;
  readonly messageExpressionError?: string;
  readonly messageExpressionMaxCost: number;
  /** The rule's fieldPath as a field path (`spec.replicas`), when it is valid. */
  readonly fieldPath?: string;
}

/** The rules of one schema node and the type their `self` has. */
export interface CompiledRules {
  readonly type: DeclType;
  readonly rules: readonly CompiledRule[];
}

export interface CompileOptions {
  /** Runtime cost limit of one evaluation; Kubernetes' per-call limit unless a test lowers it. */
  readonly perCallLimit?: number;
  /** Name of the `self` object type; by default a fresh `selfType<n>`, so rules cannot depend on it. */
  readonly typeName?: string;
}

let typeNameSequence = 0;

/** A name no rule can rely on, as Kubernetes' generateUniqueSelfTypeName. */
function uniqueSelfTypeName(): string {
  typeNameSequence = (typeNameSequence + 1) % 1_000_000_000;
  return `selfType${typeNameSequence}`;
}

/**
 * Compiles the rules declared on `schema` (not those below it). Undefined when the node has no CEL
 * type (it cannot carry rules); the caller reports that.
 */
export function compileSchemaRules(
  schema: StructuralSchema,
  isResourceRoot: boolean,
  options: CompileOptions = {},
): CompiledRules | undefined {
  const type = declTypeOf(schema, isResourceRoot, options.typeName ?? uniqueSelfTypeName());
  if (type === undefined) return undefined;
  const base = kubernetesBaseEnv();
  let plainEnv: CelEnv | undefined;
  let optionalEnv: CelEnv | undefined;
  const envFor = (rule: ValidationRule): CelEnv => {
    if (rule.optionalOldSelf === true) {
      optionalEnv ??= base.extend([
        { name: selfVariable, type: type.celType },
        { name: oldSelfVariable, type: optionalType(type.celType) },
      ]);
      return optionalEnv;
    }
    plainEnv ??= base.extend([
      { name: selfVariable, type: type.celType },
      { name: oldSelfVariable, type: type.celType },
    ]);
    return plainEnv;
  };
  const limit = options.perCallLimit ?? defaultPerCallLimit;
  const cardinality = maxCardinality(type.minSerializedSize);
  const rules = (schema["x-kubernetes-validations"] ?? []).map((rule) =>
    compileRule(schema, rule, envFor(rule), type, limit, cardinality),
  );
  return { type, rules };
}

function compileRule(
  schema: StructuralSchema,
  rule: ValidationRule,
  env: CelEnv,
  type: DeclType,
  limit: number,
  cardinality: number,
): CompiledRule {
  const empty = { rule, usesOldSelf: false, maxCost: 0, maxCardinality: 0, messageExpressionMaxCost: 0 };
  if (rule.rule.trim() === "") return empty;
  const ast = env.compile(rule.rule);
  if (ast instanceof CelIssues) return { ...empty, error: `compilation failed: ${ast.toDisplayString()}` };
  if (!sameType(resultType(ast), BoolType)) return { ...empty, error: "cel expression must evaluate to a bool" };
  const usesOldSelf = [...ast.references.values()].some((ref) => ref.name === oldSelfVariable);
  const compiled = {
    rule,
    program: env.program(ast, { costLimit: limit }),
    usesOldSelf,
    maxCost: estimateMaxCost(env, ast, type),
    maxCardinality: cardinality,
    ...compileMessageExpression(rule, env, type, limit),
  };
  if (rule.fieldPath === undefined || rule.fieldPath === "") return compiled;
  const path = validFieldPath(rule.fieldPath, schema);
  return "path" in path ? { ...compiled, fieldPath: path.path } : compiled;
}

function compileMessageExpression(
  rule: ValidationRule,
  env: CelEnv,
  type: DeclType,
  limit: number,
): Pick<CompiledRule, "messageExpression" | "messageExpressionError" | "messageExpressionMaxCost"> {
  const source = rule.messageExpression;
  if (source === undefined || source === "") return { messageExpressionMaxCost: 0 };
  const ast = env.compile(source);
  if (ast instanceof CelIssues) {
    return {
      messageExpressionMaxCost: 0,
      messageExpressionError: `messageExpression compilation failed: ${ast.toDisplayString()}`,
    };
  }
  if (!sameType(resultType(ast), StringType)) {
    return { messageExpressionMaxCost: 0, messageExpressionError: "messageExpression must evaluate to a string" };
  }
  return {
    messageExpression: env.program(ast, { costLimit: limit }),
    messageExpressionMaxCost: estimateMaxCost(env, ast, type),
  };
}

function resultType(ast: CheckedAst): CelType {
  return ast.types.get(ast.expr.id) ?? DynType;
}
