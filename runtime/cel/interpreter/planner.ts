// Plans an expression tree once into a tree of evaluator nodes (cel-go's planner): names are resolved to
// variables, comprehension slots or type values, calls to overloads, and the forms that do not evaluate
// every argument (`&&`, `||`, `?:`, comprehensions, optional `or`) to nodes of their own. Checked trees use
// the checker's references and types; parsed-only trees resolve names and overloads from the environment
// and dispatch on the argument values at run time.
//
// Indexing (`_[_]`), optional selection (`_?._`) and optional indexing (`_[?_]`) are planned here for every
// operand type (lists, maps, objects, optionals); their declared overloads need no implementation.

import { STANDARD_TYPE_IDENTIFIERS } from "../checker/type-names.js";
import type { CallExpr, CheckedAst, ComprehensionExpr, Expr, ParsedAst, Reference, SelectExpr } from "../common/ast.js";
import { type CelType, DynType, listType, mapType } from "../common/cel-types.js";
import type { FunctionDecl, OverloadDecl } from "../common/decls.js";
import type { Declarations, Program, ProgramOptions } from "../common/evaluation.js";
import { ArrayList, CelError, CelTypeValue, type CelValue } from "../common/values.js";
import { type FieldAccess, FieldStep, IndexStep } from "./access.js";
import { BinaryCall, type BoundOverload, Call, DynamicCall, membershipKey, SetMembership } from "./calls.js";
import { AppendToAccumulator, Comprehension } from "./comprehension.js";
import { staticallyMatches } from "./dispatch.js";
import { type Evaluator, Frame } from "./frame.js";
import { ListLiteral, MapLiteral, type MessageKind, ObjectLiteral } from "./literals.js";
import { PlannedProgram } from "./program.js";
import { hasField, indexValue, optionalIndex, optionalSelect, selectField } from "./selection.js";
import { Conditional, Logical, NotStrictlyFalse, OptionalOr } from "./short-circuit.js";
import { Accumulator, Constant, Local, type NameReading, QualifiedName, Variable } from "./variables.js";

export function plan(ast: CheckedAst | ParsedAst, env: Declarations, options: ProgramOptions): Program {
  const planner = new Planner(env, "types" in ast ? ast : undefined, options.errorOnBadPresenceTest === true);
  const root = planner.plan(ast.expr, false);
  return new PlannedProgram(root, planner.slotCount, options.costLimit ?? Number.POSITIVE_INFINITY);
}

/** Conversions cel-go folds at plan time when their argument is a constant (OptOptimize). */
const TYPE_CONVERSIONS = new Set([
  "bool",
  "bytes",
  "double",
  "duration",
  "dyn",
  "int",
  "string",
  "timestamp",
  "type",
  "uint",
]);

/** Calls that select from or branch into an attribute: their operands are attribute paths in cel-go. */
const ATTRIBUTE_CALLS = new Set(["_[_]", "_?._", "_[?_]", "_?_:_"]);

interface LocalBinding {
  readonly slot: number;
  /** Set for accumulators: their lazily evaluated initializer. */
  readonly init?: Evaluator;
}

class Planner {
  slotCount = 0;
  private readonly scopes: Map<string, LocalBinding>[] = [];
  /** `@result + [...]` calls to plan as in-place appends, by call id → accumulator slot. */
  private readonly appends = new Map<number, number>();
  private readonly types: ReadonlyMap<number, CelType> | undefined;
  private readonly references: ReadonlyMap<number, Reference> | undefined;

  constructor(
    private readonly env: Declarations,
    checked: CheckedAst | undefined,
    /** See ProgramOptions.errorOnBadPresenceTest (env.ts). */
    private readonly strictPresence: boolean,
  ) {
    this.types = checked?.types;
    this.references = checked?.references;
  }

  private get checked(): boolean {
    return this.types !== undefined;
  }

  /**
   * Plans an expression. `rootFree`: the expression is a conditional branch or an index value, where
   * cel-go resolves an attribute path without observing its root, so the root variable costs nothing.
   */
  plan(e: Expr, rootFree: boolean): Evaluator {
    switch (e.kind) {
      case "const":
        return new Constant(e.id, e.value);
      case "ident":
        return this.planName(e.id, [e.name], rootFree ? 0 : 1);
      case "select":
        return this.planSelect(e, rootFree);
      case "call":
        return this.planCall(e, rootFree);
      case "list":
        return this.fold(
          new ListLiteral(
            e.id,
            e.elements.map((x) => this.plan(x, false)),
            e.elements.map((_, i) => e.optionalIndices.includes(i)),
          ),
        );
      case "map":
        return this.fold(
          new MapLiteral(
            e.id,
            e.entries.map((entry) => ({
              key: this.plan(entry.key, false),
              value: this.plan(entry.value, false),
              optional: entry.optional,
            })),
          ),
        );
      case "struct":
        return this.planStruct(e.id, e.messageName, e.fields);
      case "comprehension":
        return this.planComprehension(e);
    }
  }

  /** A literal whose parts are all constants becomes a constant (cel-go's OptOptimize). */
  private fold(literal: ListLiteral | MapLiteral): Evaluator {
    const parts =
      literal instanceof ListLiteral ? literal.elements : literal.entries.flatMap((entry) => [entry.key, entry.value]);
    if (!parts.every((part) => part instanceof Constant)) return literal;
    return new Constant(literal.id, evaluateOnce(literal));
  }

  // Names

  /**
   * An identifier or dotted name. Checked trees name variables (or types) by their resolved names: a
   * reference naming a declared variable or type is global even where a comprehension variable has the
   * same name (`.y` inside `exists(y, …)`); comprehension variables carry no such reference. Parsed-only
   * trees try comprehension variables, declared variables, type names and, at run time, every namespace
   * candidate and split of the dotted name.
   */
  private planName(id: number, parts: readonly string[], cost: number): Evaluator {
    const [first, ...rest] = parts as [string, ...string[]];
    const referenced = this.references?.get(id)?.name;
    const global =
      referenced !== undefined && (this.env.variables.has(referenced) || this.typeNamed(referenced) !== undefined);
    const local = global ? undefined : this.lookupLocal(first);
    if (local !== undefined) {
      const root =
        local.init === undefined ? new Local(id, local.slot, cost) : new Accumulator(id, local.slot, cost, local.init);
      return rest.reduce<Evaluator>((operand, field) => this.fieldStep(id, operand, field, 1, selectField), root);
    }
    if (this.checked) {
      const name = referenced ?? parts.join(".");
      const type = this.env.variables.has(name) ? undefined : this.typeNamed(name);
      return type === undefined ? new Variable(id, name, cost) : new Constant(id, new CelTypeValue(type));
    }
    const readings: NameReading[] = [];
    for (let split = parts.length; split > 0; split--) {
      readings.push({ names: this.candidateNames(parts.slice(0, split).join(".")), fields: parts.slice(split) });
    }
    for (const reading of readings) {
      const declared = reading.names.find((name) => this.env.variables.has(name));
      if (declared !== undefined) {
        return reading.fields.reduce<Evaluator>(
          (operand, field) => this.fieldStep(id, operand, field, 1, selectField),
          new Variable(id, declared, cost),
        );
      }
    }
    for (const name of readings[0]?.names ?? []) {
      const type = this.typeNamed(name);
      if (type !== undefined) return new Constant(id, new CelTypeValue(type));
    }
    return new QualifiedName(id, readings, cost, this.strictPresence);
  }

  private typeNamed(name: string): CelType | undefined {
    const standard = STANDARD_TYPE_IDENTIFIERS.get(name);
    return standard?.kind === "type" ? withoutTypeParams(standard.type) : this.env.types.get(name);
  }

  /** cel-go's container resolution: `c.d` in container `a.b` → `a.b.c.d`, `a.c.d`, `c.d`; a leading dot means the root. */
  private candidateNames(name: string): string[] {
    if (name.startsWith(".")) return [name.slice(1)];
    const container = this.env.container;
    const names: string[] = [];
    for (let prefix = container; prefix !== ""; prefix = prefix.slice(0, Math.max(prefix.lastIndexOf("."), 0))) {
      names.push(`${prefix}.${name}`);
    }
    names.push(name);
    return names;
  }

  private lookupLocal(name: string): LocalBinding | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const binding = this.scopes[i]?.get(name);
      if (binding !== undefined) return binding;
    }
    return undefined;
  }

  // Selection

  private planSelect(e: SelectExpr, rootFree: boolean): Evaluator {
    if (e.testOnly) {
      const operand = this.plan(e.operand, false);
      return this.fieldStep(e.id, operand, e.field, isAttribute(operand) ? 0 : 1, hasField);
    }
    const referenced = this.references?.get(e.id)?.name;
    if (referenced !== undefined) return this.planName(e.id, [referenced], rootFree ? 0 : 1);
    if (!this.checked) {
      const parts = dottedName(e);
      if (parts !== undefined) return this.planName(e.id, parts, rootFree ? 0 : 1);
    }
    const operand = this.planOperand(e.operand, rootFree);
    return this.fieldStep(e.id, operand, e.field, stepCost(operand, rootFree), selectField);
  }

  private fieldStep(id: number, operand: Evaluator, field: string, cost: number, access: FieldAccess): FieldStep {
    return new FieldStep(id, operand, field, cost, access, this.strictPresence);
  }

  /** The operand of a selection or index: part of the same attribute path when it is one. */
  private planOperand(e: Expr, rootFree: boolean): Evaluator {
    return this.plan(e, rootFree && isAttributePath(e));
  }

  // Calls

  private planCall(e: CallExpr, rootFree: boolean): Evaluator {
    if (e.target === undefined) {
      const special = this.planOperator(e, rootFree);
      if (special !== undefined) return special;
    }
    const { fn, argExprs, member } = this.resolveFunction(e);
    const appendSlot = this.appends.get(e.id);
    if (appendSlot !== undefined) return this.planAppend(e, appendSlot);
    const args = argExprs.map((arg) => this.plan(arg, false));
    const decl = this.env.functions.get(fn);
    if (decl !== undefined && args.length === 2) {
      const lazy = this.planOptionalOr(e.id, decl, args);
      if (lazy !== undefined) return lazy;
    }
    const call = this.planOverloadCall(e.id, fn, decl, argExprs, args, member);
    if (TYPE_CONVERSIONS.has(fn) && args.length === 1 && args[0] instanceof Constant) {
      return new Constant(e.id, evaluateOnce(call));
    }
    if (fn === "@in" && args[1] instanceof Constant) return this.planMembership(e.id, args) ?? call;
    return call;
  }

  /** The operators planned as nodes of their own; undefined for ordinary functions. */
  private planOperator(e: CallExpr, rootFree: boolean): Evaluator | undefined {
    const [a, b, c] = e.args;
    if (a === undefined) return undefined;
    if (e.args.length === 1 && e.function === "@not_strictly_false") {
      return new NotStrictlyFalse(e.id, this.plan(a, false));
    }
    if (b === undefined) return undefined;
    if (e.args.length === 3 && e.function === "_?_:_" && c !== undefined) {
      return new Conditional(e.id, this.plan(a, false), this.plan(b, true), this.plan(c, true));
    }
    if (e.args.length !== 2) return undefined;
    switch (e.function) {
      case "_&&_":
      case "_||_":
        return new Logical(e.id, this.plan(a, false), this.plan(b, false), e.function === "_||_");
      case "_[_]":
      case "_[?_]": {
        const operand = this.planOperand(a, rootFree);
        const index = this.plan(b, isAttributePath(b));
        const access = e.function === "_[_]" ? indexValue : optionalIndex;
        return new IndexStep(e.id, operand, index, stepCost(operand, rootFree), access, this.strictPresence);
      }
      case "_?._": {
        if (b.kind !== "const" || typeof b.value !== "string") return undefined;
        const operand = this.planOperand(a, rootFree);
        return this.fieldStep(e.id, operand, b.value, stepCost(operand, rootFree), optionalSelect);
      }
      default:
        return undefined;
    }
  }

  /**
   * The function a call names and its arguments, receiver first. A parsed-only `a.b.f(x)` calls the
   * namespaced function `a.b.f` when one is declared (checked trees arrive already rewritten).
   */
  private resolveFunction(e: CallExpr): { fn: string; argExprs: readonly Expr[]; member: boolean } {
    if (e.target === undefined) return { fn: e.function, argExprs: e.args, member: false };
    if (!this.checked) {
      const parts = dottedName(e.target);
      if (parts !== undefined && this.lookupLocal(parts[0] as string) === undefined) {
        const fn = this.candidateNames(`${parts.join(".")}.${e.function}`).find((name) => this.env.functions.has(name));
        if (fn !== undefined) return { fn, argExprs: e.args, member: false };
      }
    }
    return { fn: e.function, argExprs: [e.target, ...e.args], member: true };
  }

  /** `a.or(b)` / `a.orValue(b)` of the optional library: b is evaluated only when a is none. */
  private planOptionalOr(id: number, decl: FunctionDecl, args: readonly Evaluator[]): Evaluator | undefined {
    const [lhs, rhs] = args as [Evaluator, Evaluator];
    const ids = this.references?.get(id)?.overloadIds;
    const picks = (overloadId: string): boolean =>
      decl.overloads.some((o) => o.id === overloadId) && (ids?.length !== 1 || ids[0] === overloadId);
    if (decl.name === "or" && picks("optional_or_optional")) return new OptionalOr(id, lhs, rhs, false);
    if (decl.name === "orValue" && picks("optional_orValue_value")) return new OptionalOr(id, lhs, rhs, true);
    return undefined;
  }

  /**
   * An ordinary call. With exactly one candidate overload the implementation is bound now, guarded by a
   * signature check unless the checked argument types guarantee it; otherwise the overload is picked at
   * run time among the candidates (those the checker kept, else every overload of the right arity).
   */
  private planOverloadCall(
    id: number,
    fn: string,
    decl: FunctionDecl | undefined,
    argExprs: readonly Expr[],
    args: readonly Evaluator[],
    member: boolean,
  ): Evaluator {
    const strict = decl?.nonStrict !== true;
    const candidates = this.candidateOverloads(id, decl, argExprs.length, member);
    const [only] = candidates;
    if (only === undefined || candidates.length > 1) return new DynamicCall(id, fn, candidates, args, strict);
    const guarded =
      only.disableTypeGuards !== true &&
      (!this.checked || !only.params.every((param, i) => staticallyMatches(param, this.typeOf(argExprs[i]))));
    if (strict && args.length === 2)
      return new BinaryCall(id, fn, only, args[0] as Evaluator, args[1] as Evaluator, guarded);
    return new Call(id, fn, only, args, guarded, strict);
  }

  private candidateOverloads(
    id: number,
    decl: FunctionDecl | undefined,
    arity: number,
    member: boolean,
  ): BoundOverload[] {
    const bound = (decl?.overloads ?? []).filter(
      (o): o is BoundOverload => o.params.length === arity && o.impl !== undefined,
    );
    const ids = this.references?.get(id)?.overloadIds;
    const referenced = ids === undefined ? [] : bound.filter((o) => ids.includes(o.id));
    if (referenced.length > 0) return referenced;
    // Otherwise any overload of the arity, those called the way the call is written (receiver or not) first.
    return [...bound.filter((o) => o.member === member), ...bound.filter((o) => o.member !== member)];
  }

  private typeOf(e: Expr | undefined): CelType | undefined {
    return e === undefined ? undefined : this.types?.get(e.id);
  }

  /**
   * `x in [constants]` resolved to `in_list`: a set lookup when every element is a bool, number or string
   * (cel-go's set-membership optimization); an empty list is always false.
   */
  private planMembership(id: number, args: readonly Evaluator[]): Evaluator | undefined {
    const ids = this.references?.get(id)?.overloadIds;
    const list = (args[1] as Constant).value;
    if (ids?.length !== 1 || ids[0] !== "in_list" || !(list instanceof ArrayList)) return undefined;
    if (list.size === 0) return new Constant(id, false);
    const members = new Set<string>();
    for (const item of list.items) {
      const key = membershipKey(item);
      if (key === undefined) return undefined;
      members.add(key);
    }
    return new SetMembership(id, args[0] as Evaluator, members);
  }

  // Messages

  private planStruct(
    id: number,
    messageName: string,
    fields: readonly { readonly field: string; readonly value: Expr; readonly optional: boolean }[],
  ): Evaluator {
    const kind = this.messageKind(id, messageName);
    if (kind === undefined) return new Constant(id, new CelError(`unknown type: ${messageName}`, id));
    return new ObjectLiteral(
      id,
      kind,
      fields.map((f) => ({ name: f.field, value: this.plan(f.value, false), optional: f.optional })),
    );
  }

  private messageKind(id: number, messageName: string): MessageKind | undefined {
    const checkedType = this.types?.get(id);
    if (checkedType?.kind === "object") return checkedType;
    for (const name of this.candidateNames(messageName)) {
      if (name === "google.protobuf.Timestamp" || name === "google.protobuf.Duration") return name;
      const type = this.env.types.get(name);
      if (type?.kind === "object") return type;
    }
    return undefined;
  }

  // Comprehensions

  private planComprehension(e: ComprehensionExpr): Evaluator {
    const range = this.plan(e.iterRange, false);
    const init = this.plan(e.accuInit, false);
    const slots = {
      iterVar: this.slotCount++,
      iterVar2: e.iterVar2 === undefined ? -1 : this.slotCount++,
      accuVar: this.slotCount++,
    };
    const accumulator: LocalBinding = { slot: slots.accuVar, init };
    const appendCall = this.appendingCall(e);
    if (appendCall !== undefined) this.appends.set(appendCall, slots.accuVar);

    const loopScope = new Map<string, LocalBinding>([[e.accuVar, accumulator]]);
    loopScope.set(e.iterVar, { slot: slots.iterVar });
    if (e.iterVar2 !== undefined) loopScope.set(e.iterVar2, { slot: slots.iterVar2 });
    this.scopes.push(loopScope);
    const condition = this.plan(e.loopCondition, false);
    const step = this.plan(e.loopStep, false);
    this.scopes.pop();

    this.scopes.push(new Map([[e.accuVar, accumulator]]));
    const result = this.plan(e.result, false);
    this.scopes.pop();
    return new Comprehension(e.id, slots, range, condition, step, result, appendCall !== undefined);
  }

  /**
   * The `@result + [x]` call of a list-building step (`map`, `filter`: the step is that call, or a
   * conditional choosing between it and `@result`) when the accumulator starts as `[]` and `+` on lists is
   * `add_list`; such a step may append in place.
   */
  private appendingCall(e: ComprehensionExpr): number | undefined {
    if (e.accuInit.kind !== "list" || e.accuInit.elements.length > 0 || this.listConcatenation() === undefined) {
      return undefined;
    }
    const isAccu = (x: Expr | undefined): boolean => x?.kind === "ident" && x.name === e.accuVar;
    const appendId = (x: Expr | undefined): number | undefined =>
      x?.kind === "call" &&
      x.function === "_+_" &&
      x.target === undefined &&
      isAccu(x.args[0]) &&
      x.args[1]?.kind === "list" &&
      !mentions(x.args[1], e.accuVar) &&
      (this.references?.get(x.id)?.overloadIds?.includes("add_list") ?? true)
        ? x.id
        : undefined;
    const step = e.loopStep;
    if (step.kind !== "call" || step.function !== "_?_:_" || step.args.length !== 3) return appendId(step);
    const [condition, truthy, falsy] = step.args;
    if (condition === undefined || mentions(condition, e.accuVar)) return undefined;
    if (isAccu(falsy)) return appendId(truthy);
    return isAccu(truthy) ? appendId(falsy) : undefined;
  }

  private listConcatenation(): OverloadDecl | undefined {
    return this.env.functions.get("_+_")?.overloads.find((o) => o.id === "add_list");
  }

  private planAppend(e: CallExpr, accuVar: number): Evaluator {
    const elements = this.plan(e.args[1] as Expr, false);
    return new AppendToAccumulator(e.id, accuVar, 1, elements, this.listConcatenation() as OverloadDecl);
  }
}

/** Nodes that are attribute paths in cel-go: selecting from them needs no relative attribute. */
function isAttribute(node: Evaluator): boolean {
  return (
    node instanceof Variable ||
    node instanceof QualifiedName ||
    node instanceof Local ||
    node instanceof Accumulator ||
    (node instanceof FieldStep && node.access !== hasField) ||
    node instanceof IndexStep ||
    node instanceof Conditional
  );
}

/** Expressions cel-go plans as attribute paths. */
function isAttributePath(e: Expr): boolean {
  if (e.kind === "ident") return true;
  if (e.kind === "select") return !e.testOnly;
  return e.kind === "call" && e.target === undefined && ATTRIBUTE_CALLS.has(e.function);
}

/** A selection or index step costs 1, plus 1 for the relative attribute over an operand that is not a path. */
function stepCost(operand: Evaluator, rootFree: boolean): number {
  return isAttribute(operand) || rootFree ? 1 : 2;
}

/** `a.b.c` as its parts, for an identifier or a chain of selections on one; undefined otherwise. */
function dottedName(e: Expr): string[] | undefined {
  if (e.kind === "ident") return [e.name];
  if (e.kind !== "select" || e.testOnly) return undefined;
  const operand = dottedName(e.operand);
  return operand === undefined ? undefined : [...operand, e.field];
}

/** Whether an expression reads the variable `name` anywhere. */
function mentions(e: Expr, name: string): boolean {
  switch (e.kind) {
    case "const":
      return false;
    case "ident":
      return e.name === name;
    case "select":
      return mentions(e.operand, name);
    case "call":
      return (e.target !== undefined && mentions(e.target, name)) || e.args.some((a) => mentions(a, name));
    case "list":
      return e.elements.some((x) => mentions(x, name));
    case "map":
      return e.entries.some((x) => mentions(x.key, name) || mentions(x.value, name));
    case "struct":
      return e.fields.some((f) => mentions(f.value, name));
    case "comprehension":
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].some((x) => mentions(x, name));
  }
}

/** A type value's type: parameters read as dyn (`list` is list(dyn), as `type([])` is). */
function withoutTypeParams(type: CelType): CelType {
  switch (type.kind) {
    case "param":
      return DynType;
    case "list":
      return listType(withoutTypeParams(type.elem));
    case "map":
      return mapType(withoutTypeParams(type.key), withoutTypeParams(type.value));
    default:
      return type;
  }
}

/** Evaluates a node with no variables (constant folding at plan time). */
function evaluateOnce(node: Evaluator): CelValue {
  return node.eval(new Frame(() => undefined, Number.POSITIVE_INFINITY, []));
}
