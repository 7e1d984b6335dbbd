// Write-time checks of a schema's x-kubernetes-validations, as the apiextensions server validates a
// CustomResourceDefinition's schema: rule, message, messageExpression, reason and fieldPath well
// formed; every rule compiling to a bool and every messageExpression to a string; no transition rule
// (oldSelf) where old values cannot be correlated (below lists that are not `map` lists); optionalOldSelf
// only on transition rules; and the estimated worst-case costs (one expression, times how often it can
// run in one object) within Kubernetes' limits.
import {
  type FieldError,
  forbidden,
  internalError,
  invalid,
  notSupported,
  required,
} from "../../errors/field-error.js";
import { child, index, key } from "../../errors/field-path.js";
import { costErrorMessage, multiplyCost, staticEstimatedCostLimit, staticEstimatedSchemaCostLimit } from "./limits.js";
import { type CompileOptions, compileSchemaRules } from "./rule-compiler.js";
import { validFieldPath } from "./rule-field-path.js";
import type { StructuralSchema, ValidationRule } from "./structural-schema.js";

/** A problem with a rule, and the schema node declaring it. */
export interface RuleProblem {
  readonly error: FieldError;
  readonly schema: StructuralSchema;
}

export interface CompileRulesOptions extends CompileOptions {
  /** The field path of the schema in the object that holds it (`spec.validation.openAPIV3Schema`); "" by default. */
  readonly path?: string;
  /** Whether the schema is a whole kind (true by default) rather than a part of one. */
  readonly isResourceRoot?: boolean;
}

const supportedReasons = ["FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"];
const lineBreak = /[\n\r]/;
const mostExpensiveShown = 4;

interface Scope {
  readonly path: string;
  /** How many times a value here can occur in one object; undefined when a list or map above is unbounded. */
  readonly cardinality: number | undefined;
  /** The list below which old values do not correlate, if any. */
  readonly uncorrelatable: string | undefined;
  readonly isResourceRoot: boolean;
}

interface ExpressionCost {
  readonly path: string;
  readonly cost: number;
  readonly schema: StructuralSchema;
}

interface Checks {
  readonly problems: RuleProblem[];
  readonly costs: ExpressionCost[];
  total: number;
  readonly options: CompileOptions;
}

/** Every problem with the rules of a schema tree, in the order kube-apiserver reports them. */
export function compileRules(schema: StructuralSchema, options: CompileRulesOptions = {}): RuleProblem[] {
  const { path = "", isResourceRoot = true, ...compileOptions } = options;
  const checks: Checks = { problems: [], costs: [], total: 0, options: compileOptions };
  visit(schema, { path, cardinality: 1, uncorrelatable: undefined, isResourceRoot }, checks);
  if (checks.total > staticEstimatedSchemaCostLimit) {
    const expensive = checks.costs
      .filter((c) => c.cost >= staticEstimatedSchemaCostLimit / 100)
      .sort((a, b) => b.cost - a.cost)
      .slice(0, mostExpensiveShown);
    for (const c of expensive) {
      const detail = "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema";
      checks.problems.push({ error: forbidden(c.path, detail), schema: c.schema });
    }
    const what = "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema";
    const detail = costErrorMessage(what, checks.total, staticEstimatedSchemaCostLimit);
    checks.problems.push({ error: forbidden(path, detail), schema });
  }
  return checks.problems;
}

/** Checks a subtree; returns whether it had problems with the form of its rules (which skip compiling above). */
function visit(schema: StructuralSchema, scope: Scope, checks: Checks): boolean {
  let malformed = false;
  const additional = typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
  if (additional !== undefined) {
    const scopeBelow = below(
      scope,
      child(scope.path, "additionalProperties"),
      mapBound(schema),
      scope.uncorrelatable,
      additional,
    );
    malformed = visit(additional, scopeBelow, checks) || malformed;
  }
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const scopeBelow = below(scope, key(child(scope.path, "properties"), name), 1, scope.uncorrelatable, prop);
    malformed = visit(prop, scopeBelow, checks) || malformed;
  }
  if (schema.items !== undefined) {
    // Only items of map lists have a correlated old value.
    const uncorrelatable =
      schema["x-kubernetes-list-type"] === "map" ? scope.uncorrelatable : (scope.uncorrelatable ?? scope.path);
    const bound = schema.maxItems !== undefined ? Math.max(0, schema.maxItems) : undefined;
    malformed =
      visit(schema.items, below(scope, child(scope.path, "items"), bound, uncorrelatable, schema.items), checks) ||
      malformed;
  }
  const rules = schema["x-kubernetes-validations"] ?? [];
  const before = checks.problems.length;
  rules.forEach((rule, i) => {
    for (const error of ruleFormProblems(schema, rule, index(child(scope.path, "x-kubernetes-validations"), i))) {
      checks.problems.push({ error, schema });
    }
  });
  malformed = malformed || checks.problems.length > before;
  if (!malformed && rules.length > 0) compileAndCost(schema, rules, scope, checks);
  return malformed;
}

function below(
  scope: Scope,
  path: string,
  factor: number | undefined,
  uncorrelatable: string | undefined,
  schema: StructuralSchema,
): Scope {
  const cardinality =
    scope.cardinality === undefined || factor === undefined ? undefined : multiplyCost(scope.cardinality, factor);
  return { path, cardinality, uncorrelatable, isResourceRoot: schema["x-kubernetes-embedded-resource"] === true };
}

function mapBound(schema: StructuralSchema): number | undefined {
  return schema.maxProperties !== undefined ? Math.max(0, schema.maxProperties) : undefined;
}

/** The checks of one rule that need no compiling. */
function ruleFormProblems(schema: StructuralSchema, rule: ValidationRule, at: string): FieldError[] {
  const out: FieldError[] = [];
  const trimmedRule = rule.rule.trim();
  const message = rule.message ?? "";
  const trimmedMessage = message.trim();
  if (trimmedRule === "") out.push(required(child(at, "rule"), "rule is not specified"));
  else if (message !== "" && trimmedMessage === "") {
    out.push(invalid(child(at, "message"), message, "message must be non-empty if specified"));
  } else if (lineBreak.test(trimmedMessage)) {
    out.push(invalid(child(at, "message"), message, "message must not contain line breaks"));
  } else if (lineBreak.test(trimmedRule) && trimmedMessage === "") {
    out.push(required(child(at, "message"), "message must be specified if rule contains line breaks"));
  }
  const messageExpression = rule.messageExpression ?? "";
  if (messageExpression !== "" && messageExpression.trim() === "") {
    out.push(required(child(at, "messageExpression"), "messageExpression must be non-empty if specified"));
  }
  if (rule.reason !== undefined && !supportedReasons.includes(rule.reason)) {
    out.push(notSupported(child(at, "reason"), rule.reason, supportedReasons));
  }
  const fieldPath = rule.fieldPath ?? "";
  if (fieldPath !== "" && fieldPath.trim() === "") {
    out.push(invalid(child(at, "fieldPath"), fieldPath, "fieldPath must be non-empty if specified"));
  }
  if (lineBreak.test(fieldPath))
    out.push(invalid(child(at, "fieldPath"), fieldPath, "fieldPath must not contain line breaks"));
  if (fieldPath !== "" && "error" in validFieldPath(fieldPath, schema)) {
    out.push(invalid(child(at, "fieldPath"), fieldPath, "fieldPath must be a valid path"));
  }
  return out;
}

function compileAndCost(
  schema: StructuralSchema,
  rules: readonly ValidationRule[],
  scope: Scope,
  checks: Checks,
): void {
  const rulesPath = child(scope.path, "x-kubernetes-validations");
  const report = (error: FieldError): void => {
    checks.problems.push({ error, schema });
  };
  const compiled = compileSchemaRules(schema, scope.isResourceRoot, checks.options);
  if (compiled === undefined) {
    report(
      internalError(
        rulesPath,
        "internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations",
      ),
    );
    return;
  }
  const observe = (path: string, cost: number): void => {
    checks.total = Math.min(checks.total + cost, 2 ** 64);
    checks.costs.push({ path, cost, schema });
  };
  compiled.rules.forEach((result, i) => {
    const rule = rules[i] as ValidationRule;
    const at = index(rulesPath, i);
    const rulePath = child(at, "rule");
    const cost = multiplyCost(result.maxCost, scope.cardinality ?? result.maxCardinality);
    if (cost > staticEstimatedCostLimit) {
      report(forbidden(rulePath, costErrorMessage("estimated rule cost", cost, staticEstimatedCostLimit)));
    }
    observe(rulePath, cost);
    if (result.error !== undefined) report(invalid(rulePath, rule, result.error));
    const messagePath = child(at, "messageExpression");
    if (result.messageExpressionError !== undefined) {
      report(invalid(messagePath, rule, result.messageExpressionError));
    } else if (result.messageExpression !== undefined) {
      if (result.messageExpressionMaxCost > staticEstimatedCostLimit) {
        const detail = costErrorMessage(
          "estimated messageExpression cost",
          result.messageExpressionMaxCost,
          staticEstimatedCostLimit,
        );
        report(forbidden(messagePath, detail));
      }
      observe(messagePath, result.messageExpressionMaxCost);
    }
    if (result.usesOldSelf) {
      if (scope.uncorrelatable !== undefined) {
        const detail = `oldSelf cannot be used on the uncorrelatable portion of the schema within ${scope.uncorrelatable}`;
        report(invalid(rulePath, rule.rule, detail));
      }
    } else if (rule.optionalOldSelf !== undefined) {
      report(
        invalid(child(at, "optionalOldSelf"), rule.optionalOldSelf, "may not be set if oldSelf is not used in rule"),
      );
    }
  });
}
