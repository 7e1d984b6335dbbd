// Runs the x-kubernetes-validations rules of a schema tree on an object, as the apiextensions
// server's cel.Validator: every rule is compiled once per schema (cached), then each write walks the
// object, evaluating the rules of each node with `self` (and on update `oldSelf`, the correlated old
// value) against one runtime cost budget per object. Results are field errors worded as Kubernetes
// words them.

import { type FieldError, invalid } from "../../errors/field-error.js";
import { child, index, key } from "../../errors/field-path.js";
import { formatFieldError } from "../../errors/format-field-error.js";
import { isJsonObject } from "../../object/json-object.js";
import type { Activation } from "../common/evaluation.js";
import { CelOptional, type CelValue, isError } from "../common/values.js";
import { runtimeCostBudget } from "./limits.js";
import {
  type CompiledRule,
  type CompileOptions,
  compileSchemaRules,
  oldSelfVariable,
  selfVariable,
} from "./rule-compiler.js";
import { Correlated, mapListIndex } from "./rule-correlation.js";
import { costLimitPrefix, outOfBudget, ruleErrorString, ruleFailure, runtimeErrorDetail } from "./rule-errors.js";
import { evaluateMessageExpression } from "./rule-messages.js";
import { type DeclType, declTypeOf } from "./schema-types.js";
import { celValueOf } from "./schema-values.js";
import { hasValidationRules, type StructuralSchema } from "./structural-schema.js";

export interface ValidateOptions {
  /** The field path of the value validated; "" (the default) for a whole object. */
  readonly path?: string;
  /** Runtime cost the rules may spend; Kubernetes' per-object budget by default. */
  readonly budget?: number;
  /**
   * Ratcheting (CustomResourceDefinition updates): an error of a rule that does not read oldSelf, on a
   * value equal to its correlated old value, becomes a warning.
   */
  readonly ratcheting?: boolean;
}

export interface ValidateResult {
  readonly errors: FieldError[];
  /** Ratcheted errors, as warning texts. */
  readonly warnings: string[];
  /** Budget left; negative once evaluation stopped for cost. */
  readonly remainingBudget: number;
}

/** A schema node with rules at or below it. */
interface RuleNode {
  readonly schema: StructuralSchema;
  readonly type?: DeclType;
  readonly rules: readonly CompiledRule[];
  /** Set when the node declares rules but CEL cannot see its values. */
  readonly initError?: string;
  readonly usesOldSelf: boolean;
  readonly items?: RuleNode;
  readonly properties?: ReadonlyMap<string, RuleNode>;
  readonly additionalProperties?: RuleNode;
}

interface Ratchet {
  readonly current?: Correlated;
  readonly parent?: Correlated;
}

interface Walk {
  readonly errors: FieldError[];
  readonly warnings: string[];
  remaining: number;
  readonly ratcheting: boolean;
}

/** The compiled rules of a schema tree; build with {@link ruleValidatorFor}. */
export class RuleValidator {
  constructor(private readonly root: RuleNode) {}

  /** Validates `obj` (and, on update, the transition to it from `old`). */
  validate(obj: unknown, old?: unknown, options: ValidateOptions = {}): ValidateResult {
    const walk: Walk = {
      errors: [],
      warnings: [],
      remaining: options.budget ?? runtimeCostBudget,
      ratcheting: options.ratcheting === true,
    };
    const ratchet: Ratchet =
      walk.ratcheting && old !== undefined ? { current: new Correlated(obj, old, this.root.schema) } : {};
    visit(this.root, options.path ?? "", obj, old, ratchet, walk);
    return { errors: walk.errors, warnings: walk.warnings, remainingBudget: walk.remaining };
  }
}

const cache = new WeakMap<StructuralSchema, RuleValidator | null>();

/**
 * The validator of a schema tree (a kind's schema, `isResourceRoot`), compiled on first use and cached
 * per schema object; undefined when the tree has no rules.
 */
export function ruleValidatorFor(
  schema: StructuralSchema,
  isResourceRoot = true,
  options?: CompileOptions,
): RuleValidator | undefined {
  if (options !== undefined) return build(schema, isResourceRoot, options);
  let validator = cache.get(schema);
  if (validator === undefined) {
    validator = build(schema, isResourceRoot, {}) ?? null;
    cache.set(schema, validator);
  }
  return validator ?? undefined;
}

function build(schema: StructuralSchema, isResourceRoot: boolean, options: CompileOptions): RuleValidator | undefined {
  const root = buildNode(schema, isResourceRoot, options);
  return root === undefined ? undefined : new RuleValidator(root);
}

function buildNode(schema: StructuralSchema, isResourceRoot: boolean, options: CompileOptions): RuleNode | undefined {
  if (!hasValidationRules(schema)) return undefined;
  const declared = schema["x-kubernetes-validations"] ?? [];
  const compiled = declared.length > 0 ? compileSchemaRules(schema, isResourceRoot, options) : undefined;
  const childNode = (s: StructuralSchema | undefined): RuleNode | undefined => {
    // Values CEL cannot see are not validated by rules, nor anything below them.
    if (s === undefined || declTypeOf(s, false) === undefined) return undefined;
    return buildNode(s, s["x-kubernetes-embedded-resource"] === true, options);
  };
  const properties = new Map<string, RuleNode>();
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const node = childNode(prop);
    if (node !== undefined) properties.set(name, node);
  }
  const additional = typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
  const items = childNode(schema.items);
  const additionalProperties = childNode(additional);
  return {
    schema,
    ...(compiled !== undefined ? { type: compiled.type } : {}),
    rules: compiled?.rules ?? [],
    ...(declared.length > 0 && compiled === undefined
      ? {
          initError: `rule declared on schema that does not support validation rules type: '${schema.type ?? ""}' x-kubernetes-preserve-unknown-fields: '${schema["x-kubernetes-preserve-unknown-fields"] === true}'`,
        }
      : {}),
    usesOldSelf: compiled?.rules.some((r) => r.usesOldSelf) ?? false,
    ...(items !== undefined ? { items } : {}),
    ...(properties.size > 0 ? { properties } : {}),
    ...(additionalProperties !== undefined ? { additionalProperties } : {}),
  };
}

function visit(node: RuleNode, path: string, obj: unknown, old: unknown, ratchet: Ratchet, walk: Walk): void {
  if (obj === null || obj === undefined) return;
  evaluateRules(node, path, obj, old ?? undefined, ratchet, walk);
  if (walk.remaining < 0) return;
  if (Array.isArray(obj)) {
    if (node.items === undefined) return;
    const lookup = mapListIndex(node.schema, old);
    for (let i = 0; i < obj.length; i++) {
      const current = ratchet.current?.index(i, lookup);
      const next =
        ratchet.current === undefined
          ? ratchet
          : { ...(current !== undefined ? { current } : {}), parent: ratchet.current };
      visit(node.items, index(path, i), obj[i], lookup?.get(obj[i]), next, walk);
      if (walk.remaining < 0) return;
    }
    return;
  }
  if (!isJsonObject(obj) || (node.properties === undefined && node.additionalProperties === undefined)) return;
  const oldObj = isJsonObject(old) ? old : undefined;
  for (const [name, value] of Object.entries(obj)) {
    const propNode = node.properties?.get(name);
    const target = propNode ?? node.additionalProperties;
    if (target === undefined) continue;
    const childPath = propNode !== undefined ? child(path, name) : key(path, name);
    visit(target, childPath, value, oldObj?.[name], ratchetKey(ratchet, name), walk);
    if (walk.remaining < 0) return;
  }
}

function ratchetKey(ratchet: Ratchet, name: string): Ratchet {
  if (ratchet.current === undefined) return ratchet;
  // apiVersion and kind of the root are the same in both after conversion, so they never ratchet.
  if (ratchet.parent === undefined && (name === "apiVersion" || name === "kind")) return {};
  const current = ratchet.current.key(name);
  return { ...(current !== undefined ? { current } : {}), parent: ratchet.current };
}

function shouldRatchet(ratchet: Ratchet): boolean {
  if (ratchet.current !== undefined) return ratchet.current.unchanged();
  return ratchet.parent?.unchanged() ?? false;
}

function evaluateRules(node: RuleNode, path: string, obj: unknown, old: unknown, ratchet: Ratchet, walk: Walk): void {
  const typeName = node.schema.type ?? "";
  if (node.initError !== undefined) {
    walk.errors.push(invalid(path, typeName, `rule compiler initialization error: ${node.initError}`));
    return;
  }
  const type = node.type;
  if (type === undefined || node.rules.length === 0) return;
  if (walk.remaining <= 0) {
    walk.errors.push(outOfBudget(path, typeName));
    walk.remaining = -1;
    return;
  }
  const self = celValueOf(obj, type);
  const oldSelf = node.usesOldSelf && old !== undefined ? celValueOf(old, type) : undefined;
  const activation = variables(self, oldSelf);
  let optionalActivation: Activation | undefined;
  for (const compiled of node.rules) {
    const { rule } = compiled;
    if (compiled.error !== undefined) {
      walk.errors.push(invalid(path, typeName, `rule compile error: ${compiled.error}`));
      continue;
    }
    if (compiled.program === undefined) continue;
    const optionalOldSelf = rule.optionalOldSelf === true;
    // Transition rules need an old value, unless they take oldSelf as an optional.
    if (compiled.usesOldSelf && old === undefined && !optionalOldSelf) continue;
    if (optionalOldSelf) {
      optionalActivation ??= variables(self, oldSelf === undefined ? CelOptional.none : new CelOptional(oldSelf));
    }
    const { value, cost } = compiled.program.eval(optionalOldSelf ? (optionalActivation as Activation) : activation);
    if (cost > walk.remaining) {
      walk.errors.push(outOfBudget(path, typeName));
      walk.remaining = -1;
      return;
    }
    walk.remaining -= cost;
    if (isError(value)) {
      walk.errors.push(invalid(path, typeName, runtimeErrorDetail(value.message, ruleErrorString(rule))));
      if (value.message.startsWith(costLimitPrefix)) {
        walk.remaining = -1;
        return;
      }
      continue;
    }
    if (value === true) continue;
    const at = compiled.fieldPath !== undefined ? child(path, compiled.fieldPath) : path;
    const report = (e: FieldError): void => {
      if (walk.ratcheting && !compiled.usesOldSelf && shouldRatchet(ratchet)) walk.warnings.push(formatFieldError(e));
      else walk.errors.push(e);
    };
    let detail: string | undefined;
    if (compiled.messageExpression !== undefined && rule.messageExpression !== undefined) {
      const message = evaluateMessageExpression(
        compiled.messageExpression,
        rule.messageExpression,
        activation,
        walk.remaining,
      );
      walk.remaining = message.remaining;
      if (message.kind === "message") detail = message.text;
      else if (message.kind === "stop") {
        report(invalid(at, typeName, message.text));
        walk.remaining = -1;
        return;
      }
    }
    report(ruleFailure(at, obj, node.schema, rule, detail));
  }
}

function variables(self: CelValue, oldSelf: CelValue | undefined): Activation {
  return (name) => (name === selfVariable ? self : name === oldSelfVariable ? oldSelf : undefined);
}
