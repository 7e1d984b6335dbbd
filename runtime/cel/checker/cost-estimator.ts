// The static worst-case cost of a checked expression, after cel-go's checker/cost.go: every node costs
// what the interpreter would charge for it (identifiers and field selections 1, literals 0, list / map /
// message literals a base of 10 / 30 / 40, calls their overload's cost), comprehensions cost their loop
// body times the size of what they range over, and `&&`, `||` and `?:` take the range between their
// cheapest and dearest branch. Sizes of strings, bytes, lists and maps come from literals, from the
// operands of the call that built them (concatenation, comprehension results, library functions'
// `resultSize`), or from the caller's SizeEstimator, asked by the path of field names from a variable
// (`self.spec.ports.@items.name`) as cel-go's AstNode.Path().
//
// Costs and sizes are uint64 in cel-go and saturate at 2^64; here they are doubles that saturate at
// 2^64 too, exact up to 2^53, which is far above every limit they are compared with.
import type {
  CallExpr,
  CheckedAst,
  ComprehensionExpr,
  ConstantValue,
  Expr,
  ListExpr,
  MapExpr,
  SelectExpr,
} from "../common/ast.js";
import { type CelType, DynType } from "../common/cel-types.js";
import type { CostEstimate, FunctionDecl, OverloadDecl, SizeEstimate } from "../common/decls.js";
import { type CallEstimateContext, type ContextualCost, multiplyEstimates } from "../library/kubernetes-call-cost.js";
import { addCosts, MAX_COST } from "../library/kubernetes-cost.js";
import { codePointLength } from "../library/standard/text.js";

/** cel-go's common/cost.go constants. */
const CONST_COST = 0;
const SELECT_AND_IDENT_COST = 1;
const LIST_CREATE_BASE_COST = 10;
const MAP_CREATE_BASE_COST = 30;
const STRUCT_CREATE_BASE_COST = 40;

/** The accumulator names of macro comprehensions: a path through them names no declared data. */
const ACCUMULATOR_NAMES = new Set(["@result", "__result__"]);

/** An expression as a call estimate sees it (cel-go's AstNode). */
export interface CostNode {
  readonly expr: Expr;
  /** Variable name then field names, `@items`, `@values`, `@keys` (or `@indices`); empty when the value is not reachable from a variable. */
  readonly path: readonly string[];
  readonly type: CelType;
  /** The size the estimator knows for the value, if any. */
  readonly size: SizeEstimate | undefined;
}

/** The cost of one call, without its arguments' costs, and the size of its result when that is known. */
export interface CallEstimate {
  readonly cost: CostEstimate;
  readonly resultSize?: SizeEstimate | undefined;
}

/** What the caller knows beyond the expression: sizes of its inputs and, optionally, costs of calls. */
export interface SizeEstimator {
  /** The size bounds of the value at `path` (the first element is the variable), or undefined when unknown. */
  estimateSize(path: readonly string[], type: CelType): SizeEstimate | undefined;
  /**
   * The cost of a call before the overloads' own cost hooks are asked (cel-go's EstimateCallCost);
   * `args` has the receiver of a member call first. Undefined leaves the call to the hooks.
   */
  estimateCallCost?(fn: string, overloadId: string, args: readonly CostNode[]): CallEstimate | undefined;
}

export interface CostOptions {
  /** Whether `has()` costs 1 (cel-go's default) or 0 (Kubernetes keeps the older 0). */
  readonly presenceTestHasCost?: boolean;
}

/** What the estimator needs from an environment (CelEnv provides it). */
export interface CostEnv {
  readonly functions: ReadonlyMap<string, FunctionDecl>;
}

/** The range of costs evaluating the expression can have, from its cheapest to its dearest path. */
export function estimateCost(
  ast: CheckedAst,
  env: CostEnv,
  sizes: SizeEstimator,
  options: CostOptions = {},
): CostEstimate {
  return new Coster(ast, overloadsOf(env), sizes, options.presenceTestHasCost ?? true).cost(ast.expr);
}

const overloadIndexes = new WeakMap<ReadonlyMap<string, FunctionDecl>, ReadonlyMap<string, OverloadDecl>>();

function overloadsOf(env: CostEnv): ReadonlyMap<string, OverloadDecl> {
  let index = overloadIndexes.get(env.functions);
  if (index === undefined) {
    const byId = new Map<string, OverloadDecl>();
    for (const fn of env.functions.values()) for (const o of fn.overloads) byId.set(o.id, o);
    index = byId;
    overloadIndexes.set(env.functions, index);
  }
  return index;
}

const ZERO: CostEstimate = { min: 0, max: 0 };
const ONE: CostEstimate = { min: 1, max: 1 };
const UNKNOWN_SIZE: SizeEstimate = { min: 0, max: MAX_COST };

function fixed(n: number): CostEstimate {
  return { min: n, max: n };
}

function union(a: SizeEstimate, b: SizeEstimate): SizeEstimate {
  return { min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) };
}

/** The sizes of a container's entries: list indices (always 1) and items, or map keys and values. */
interface EntrySize {
  readonly container: "list" | "map";
  readonly key: SizeEstimate;
  readonly value: SizeEstimate;
}

function unionEntries(a: EntrySize | undefined, b: EntrySize | undefined): EntrySize | undefined {
  if (a === undefined || b === undefined) return undefined;
  return { container: a.container, key: union(a.key, b.key), value: union(a.value, b.value) };
}

/** A comprehension variable or `cel.bind` name: where its value comes from and what is known of its size. */
interface LocalVar {
  readonly path: readonly string[];
  readonly size: SizeEstimate | undefined;
  readonly entrySize: EntrySize | undefined;
}

class Coster {
  private readonly paths = new Map<number, readonly string[]>();
  private readonly sizes = new Map<number, SizeEstimate>();
  private readonly entrySizes = new Map<number, EntrySize>();
  private readonly locals = new Map<string, LocalVar[]>();
  private readonly presenceTestCost: CostEstimate;

  constructor(
    private readonly ast: CheckedAst,
    private readonly overloads: ReadonlyMap<string, OverloadDecl>,
    private readonly estimator: SizeEstimator,
    presenceTestHasCost: boolean,
  ) {
    this.presenceTestCost = presenceTestHasCost ? ONE : ZERO;
  }

  cost(e: Expr): CostEstimate {
    switch (e.kind) {
      case "const":
        return fixed(CONST_COST);
      case "ident":
        this.paths.set(e.id, this.local(e.name)?.path ?? [e.name]);
        return fixed(SELECT_AND_IDENT_COST);
      case "select":
        return this.costSelect(e);
      case "call":
        return this.costCall(e);
      case "list":
        return this.costList(e);
      case "map":
        return this.costMap(e);
      case "struct":
        return e.fields.reduce((sum, f) => addCosts(sum, this.cost(f.value)), fixed(STRUCT_CREATE_BASE_COST));
      case "comprehension":
        return isBind(e) ? this.costBind(e) : this.costComprehension(e);
    }
  }

  private costSelect(e: SelectExpr): CostEstimate {
    // A presence test charges the test in place of the selection.
    if (e.testOnly) return addCosts(this.presenceTestCost, this.cost(e.operand));
    let sum = this.cost(e.operand);
    const kind = this.typeOf(e.operand).kind;
    // Selecting from dyn is priced as cel-go prices it: by the operand alone.
    if (kind === "map" || kind === "object" || kind === "param") sum = addCosts(sum, fixed(SELECT_AND_IDENT_COST));
    this.paths.set(e.id, [...this.pathOf(e.operand), e.field]);
    return sum;
  }

  private costCall(e: CallExpr): CostEstimate {
    if (e.function === "dyn" && e.args.length === 1) {
      // dyn() only turns type checking off: the value keeps its size.
      const arg = e.args[0] as Expr;
      const argCost = this.cost(arg);
      this.copySizes(e, arg);
      return addCosts(ONE, argCost);
    }
    const argCosts: CostEstimate[] = [];
    const argNodes: CostNode[] = [];
    for (const arg of e.args) {
      argCosts.push(this.cost(arg));
      argNodes.push(this.node(arg));
    }
    const overloadIds = this.ast.references.get(e.id)?.overloadIds ?? [];
    if (overloadIds.length === 0) return ZERO;
    const sum = e.target === undefined ? ZERO : this.cost(e.target);
    // Receiver first, as the overloads' cost hooks take their arguments.
    const nodes = e.target === undefined ? argNodes : [this.node(e.target), ...argNodes];
    // Cover every overload the argument types allow.
    let fnCost: CostEstimate = { min: MAX_COST, max: 0 };
    let resultSize: SizeEstimate | undefined;
    for (const id of overloadIds) {
      const estimate = this.functionCost(e, id, nodes, argCosts);
      fnCost = union(fnCost, estimate.cost);
      if (estimate.resultSize !== undefined) {
        resultSize = resultSize === undefined ? estimate.resultSize : union(resultSize, estimate.resultSize);
      }
      const indexed = e.args[0];
      if ((id === "index_list" || id === "index_map") && indexed !== undefined) {
        resultSize = this.entrySizeOf(indexed)?.value;
        this.paths.set(e.id, [...this.pathOf(indexed), id === "index_list" ? "@items" : "@values"]);
      }
      resultSize ??= this.sizeOf(e);
    }
    if (resultSize !== undefined) this.sizes.set(e.id, resultSize);
    return addCosts(sum, fnCost);
  }

  /** cel-go's functionCost: the caller's estimate, the overload's hook, the operators it prices itself, or 1. */
  private functionCost(
    e: CallExpr,
    overloadId: string,
    nodes: readonly CostNode[],
    argCosts: readonly CostEstimate[],
  ): CallEstimate {
    const argSum = argCosts.reduce(addCosts, ZERO);
    const custom = this.estimator.estimateCallCost?.(e.function, overloadId, nodes);
    if (custom !== undefined) return { cost: addCosts(custom.cost, argSum), resultSize: custom.resultSize };
    const args = e.args;
    switch (overloadId) {
      case "logical_and":
      case "logical_or": {
        // Short-circuiting: at least the left operand, at most both.
        const [lhs = ZERO, rhs = ZERO] = argCosts;
        return { cost: { min: lhs.min, max: addCosts(lhs, rhs).max } };
      }
      case "conditional": {
        const [condition = ZERO, ifTrue = ZERO, ifFalse = ZERO] = argCosts;
        const [, whenTrue, whenFalse] = nodes;
        const entries = unionEntries(this.entrySizeOfOptional(args[1]), this.entrySizeOfOptional(args[2]));
        if (entries !== undefined) this.entrySizes.set(e.id, entries);
        return {
          cost: addCosts(condition, union(ifTrue, ifFalse)),
          resultSize: union(whenTrue?.size ?? UNKNOWN_SIZE, whenFalse?.size ?? UNKNOWN_SIZE),
        };
      }
      case "add_string":
      case "add_bytes":
      case "add_list": {
        const entries = unionEntries(this.entrySizeOfOptional(args[0]), this.entrySizeOfOptional(args[1]));
        if (entries !== undefined) this.entrySizes.set(e.id, entries);
        break;
      }
    }
    return this.overloadCost(overloadId, nodes, argSum);
  }

  /** The overload's cost hook, given the argument sizes; an overload without one costs 1. */
  private overloadCost(overloadId: string, nodes: readonly CostNode[], argSum: CostEstimate): CallEstimate {
    const hook = this.overloads.get(overloadId)?.cost as ContextualCost | undefined;
    const sizes = nodes.map((n) => n.size);
    const context = this.callContext(nodes);
    const resultSize = hook?.resultSize?.(sizes, context);
    const cost = hook?.estimate?.(sizes, resultSize, context) ?? ONE;
    return { cost: addCosts(cost, argSum), resultSize };
  }

  private callContext(nodes: readonly CostNode[]): CallEstimateContext {
    return {
      argTypes: nodes.map((n) => n.type),
      elementSize: (i) => {
        const node = nodes[i];
        if (node?.type.kind !== "list") return undefined;
        return this.estimator.estimateSize(node.path.length > 0 ? [...node.path, "@items"] : [], node.type.elem);
      },
      literal: (i): ConstantValue | undefined => {
        const expr = nodes[i]?.expr;
        return expr?.kind === "const" ? expr.value : undefined;
      },
    };
  }

  private costList(e: ListExpr): CostEstimate {
    let sum = fixed(LIST_CREATE_BASE_COST);
    let items: SizeEstimate = e.elements.length === 0 ? { min: 0, max: 0 } : { min: MAX_COST, max: 0 };
    for (const element of e.elements) {
      sum = addCosts(sum, this.cost(element));
      items = union(items, this.sizeOrUnknown(element));
    }
    this.entrySizes.set(e.id, { container: "list", key: { min: 1, max: 1 }, value: items });
    return sum;
  }

  private costMap(e: MapExpr): CostEstimate {
    let sum = fixed(MAP_CREATE_BASE_COST);
    const empty = e.entries.length === 0;
    let keys: SizeEstimate = empty ? { min: 0, max: 0 } : { min: MAX_COST, max: 0 };
    let values = keys;
    for (const entry of e.entries) {
      sum = addCosts(addCosts(sum, this.cost(entry.key)), this.cost(entry.value));
      keys = union(keys, this.sizeOrUnknown(entry.key));
      values = union(values, this.sizeOrUnknown(entry.value));
    }
    this.entrySizes.set(e.id, { container: "map", key: keys, value: values });
    return sum;
  }

  /** range + init + (condition + step) × size of the range + result. */
  private costComprehension(e: ComprehensionExpr): CostEstimate {
    let sum = addCosts(this.cost(e.iterRange), this.cost(e.accuInit));
    this.pushLocal(e.accuVar, e.accuInit);
    if (e.iterVar2 === undefined) {
      this.pushIterVar(e.iterVar, e.iterRange, "single");
    } else {
      this.pushIterVar(e.iterVar, e.iterRange, "key");
      this.pushIterVar(e.iterVar2, e.iterRange, "value");
    }
    const loopCost = this.cost(e.loopCondition);
    const stepCost = this.cost(e.loopStep);
    this.popLocal(e.iterVar);
    if (e.iterVar2 !== undefined) this.popLocal(e.iterVar2);
    sum = addCosts(sum, this.cost(e.result));
    this.popLocal(e.accuVar);
    const rangeCount = this.sizeOrUnknown(e.iterRange);
    sum = addCosts(sum, multiplyEstimates(rangeCount, addCosts(stepCost, loopCost)));
    // A fold into a literal keeps its size; one building a list or map grows with the range.
    const init = e.accuInit;
    if (init.kind === "const") {
      const size = this.sizeOf(init);
      if (size !== undefined) this.sizes.set(e.id, size);
    } else if (init.kind === "list" || init.kind === "map") {
      this.sizes.set(e.id, rangeCount);
      const stepEntries = this.entrySizeOf(e.loopStep);
      if (stepEntries !== undefined) this.entrySizes.set(e.id, stepEntries);
    }
    return sum;
  }

  /** `cel.bind` is evaluated once, lazily: init and result, without a loop. */
  private costBind(e: ComprehensionExpr): CostEstimate {
    const sum = addCosts(this.cost(e.iterRange), this.cost(e.accuInit));
    this.pushLocal(e.accuVar, e.accuInit);
    const total = addCosts(sum, this.cost(e.result));
    this.popLocal(e.accuVar);
    this.copySizes(e, e.result);
    return total;
  }

  /**
   * An iteration variable: a list's element (`@items`) or index (`@indices`), a map's key (`@keys`) or
   * value (`@values`), sized from the range's entries when they are known.
   */
  private pushIterVar(name: string, range: Expr, role: "single" | "key" | "value"): void {
    const entries = this.entrySizeOf(range);
    const isList = (entries?.container ?? this.typeOf(range).kind) === "list";
    let subpath: string;
    let size: SizeEstimate | undefined;
    if (role === "value" || (role === "single" && isList)) {
      subpath = isList ? "@items" : "@values";
      size = entries?.value;
    } else {
      subpath = role === "key" && isList ? "@indices" : "@keys";
      size = entries?.key;
    }
    this.push(name, { path: [...this.pathOf(range), subpath], size, entrySize: undefined });
  }

  private pushLocal(name: string, e: Expr): void {
    this.push(name, { path: this.pathOf(e), size: this.sizeOf(e), entrySize: this.entrySizeOf(e) });
  }

  private push(name: string, local: LocalVar): void {
    const stack = this.locals.get(name);
    if (stack === undefined) this.locals.set(name, [local]);
    else stack.push(local);
  }

  private popLocal(name: string): void {
    this.locals.get(name)?.pop();
  }

  private local(name: string): LocalVar | undefined {
    return this.locals.get(name)?.at(-1);
  }

  private node(e: Expr): CostNode {
    const path = this.pathOf(e);
    return {
      expr: e,
      // Accumulators hold intermediate values, not declared data.
      path: path.length > 0 && ACCUMULATOR_NAMES.has(path[0] as string) ? [] : path,
      type: this.typeOf(e),
      size: this.sizeOf(e),
    };
  }

  private pathOf(e: Expr): readonly string[] {
    if (e.kind === "ident") {
      const local = this.local(e.name);
      if (local !== undefined) return local.path;
    }
    return this.paths.get(e.id) ?? [];
  }

  private typeOf(e: Expr): CelType {
    return this.ast.types.get(e.id) ?? DynType;
  }

  private sizeOrUnknown(e: Expr): SizeEstimate {
    return this.sizeOf(e) ?? UNKNOWN_SIZE;
  }

  /** cel-go's computeSize: computed, literal, estimated, scalar, or a local variable's size. */
  private sizeOf(e: Expr): SizeEstimate | undefined {
    const computed = this.sizes.get(e.id) ?? literalSize(e);
    if (computed !== undefined) return computed;
    const type = this.typeOf(e);
    const estimated = this.estimator.estimateSize(this.pathOf(e), type);
    if (estimated !== undefined) {
      this.sizes.set(e.id, estimated);
      return estimated;
    }
    if (isScalar(type)) return { min: 1, max: 1 };
    return e.kind === "ident" ? this.local(e.name)?.size : undefined;
  }

  private entrySizeOf(e: Expr): EntrySize | undefined {
    const computed = this.entrySizes.get(e.id);
    if (computed !== undefined) return computed;
    return e.kind === "ident" ? this.local(e.name)?.entrySize : undefined;
  }

  private entrySizeOfOptional(e: Expr | undefined): EntrySize | undefined {
    return e === undefined ? undefined : this.entrySizeOf(e);
  }

  private copySizes(to: Expr, from: Expr): void {
    const size = this.sizeOf(from);
    if (size !== undefined) this.sizes.set(to.id, size);
    const entries = this.entrySizeOf(from);
    if (entries !== undefined) this.entrySizes.set(to.id, entries);
  }
}

/** `cel.bind` expands to a fold over an empty list that never loops, with the bound name as accumulator. */
function isBind(e: ComprehensionExpr): boolean {
  const range = e.iterRange;
  const condition = e.loopCondition;
  return (
    range.kind === "list" &&
    range.elements.length === 0 &&
    condition.kind === "const" &&
    condition.value === false &&
    !ACCUMULATOR_NAMES.has(e.accuVar)
  );
}

/** Exact sizes of literals: code points of a string, bytes, entries of a list or map literal, 1 for a scalar. */
function literalSize(e: Expr): SizeEstimate | undefined {
  let size: number;
  if (e.kind === "const") {
    const v = e.value;
    size = typeof v === "string" ? codePointLength(v) : v instanceof Uint8Array ? v.length : 1;
  } else if (e.kind === "list") {
    size = e.elements.length;
  } else if (e.kind === "map") {
    size = e.entries.length;
  } else {
    return undefined;
  }
  return { min: size, max: size };
}

/** Types whose values have a constant size (strings, bytes, containers, dyn and null do not). */
function isScalar(type: CelType): boolean {
  switch (type.kind) {
    case "bool":
    case "double":
    case "duration":
    case "int":
    case "timestamp":
    case "uint":
      return true;
    case "opaque":
      return type.name === "optional_type" && type.params[0] !== undefined && isScalar(type.params[0]);
    default:
      return false;
  }
}
