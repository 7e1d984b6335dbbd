// CEL's type checker, after cel-go's (checker/checker.go): it types every expression against the
// environment's variables, functions and types, resolves names in the container, narrows each call to
// the overloads its argument types match, and reports problems in cel-go's words, because Kubernetes
// returns them to users. Like cel-go it rewrites what it resolved: a select chain naming a variable
// becomes that variable's identifier, namespaced calls lose their receiver, names become fully qualified.
import type {
  CallExpr,
  CheckedAst,
  ComprehensionExpr,
  Expr,
  IdentExpr,
  ListExpr,
  MapExpr,
  ParsedAst,
  Reference,
  SelectExpr,
  StructExpr,
} from "../common/ast.js";
import {
  BoolType,
  type CelType,
  DynType,
  ErrorType,
  IntType,
  listType,
  mapType,
  type ObjectType,
  optionalType,
  typeName,
  typeParam,
} from "../common/cel-types.js";
import type { FunctionDecl, OverloadDecl } from "../common/decls.js";
import { type CelIssue, CelIssues } from "../common/issues.js";
import { typeOfValue } from "../common/values.js";
import { formatCallSignature, formatCheckedType } from "./format-type.js";
import { candidateNames, firstSegment, qualifiedName } from "./name-resolution.js";
import { STANDARD_TYPE_IDENTIFIERS, WELL_KNOWN_MESSAGE_FIELDS, wellKnownMessageName } from "./type-names.js";
import {
  isAssignable,
  isAssignableList,
  isDyn,
  isDynOrError,
  isExactType,
  mostGeneral,
  substitute,
  TypeMapping,
} from "./unification.js";

/** What the checker needs from an environment (CelEnv provides it). */
export interface CheckerEnv {
  readonly functions: ReadonlyMap<string, FunctionDecl>;
  readonly variables: ReadonlyMap<string, CelType>;
  /** Named types (object and opaque types), usable as type values and message names. */
  readonly types: ReadonlyMap<string, CelType>;
  readonly container: string;
}

/** Type-checks a parsed expression: a checked tree, or the problems found (sorted by position, as cel-go prints them). */
export function check(ast: ParsedAst, env: CheckerEnv): CheckedAst | CelIssues {
  const checker = new Checker(ast, env);
  const expr = checker.check(ast.expr);
  if (checker.issues.length > 0) {
    const issues = [...checker.issues].sort((a, b) => a.offset - b.offset);
    return new CelIssues(ast.sourceInfo.source, issues);
  }
  return { expr, sourceInfo: ast.sourceInfo, types: checker.finalTypes(), references: checker.references };
}

interface ResolvedIdent {
  readonly name: string;
  readonly type: CelType;
  /** A comprehension variable: it gets no reference, as the planner reads a reference naming a declared variable as that global. */
  readonly local: boolean;
}

const LOGICAL_OPERATORS = new Set(["_&&_", "_||_"]);
const OPTIONAL_SELECT = "_?._";
const OPTIONAL_SELECT_OVERLOAD = "select_optional_field";

class Checker {
  readonly issues: CelIssue[] = [];
  readonly references = new Map<number, Reference>();
  private readonly types = new Map<number, CelType>();
  private mapping = new TypeMapping();
  private typeVarCount = 0;
  /** Comprehension variables, innermost scope last. */
  private readonly scopes: Map<string, CelType>[] = [];

  constructor(
    private readonly ast: ParsedAst,
    private readonly env: CheckerEnv,
  ) {}

  /** Every recorded type with type parameters replaced by their bindings, or dyn when unbound. */
  finalTypes(): Map<number, CelType> {
    const out = new Map<number, CelType>();
    for (const [id, type] of this.types) out.set(id, substitute(this.mapping, type, true));
    return out;
  }

  check(e: Expr): Expr {
    switch (e.kind) {
      case "const":
        this.setType(e.id, typeOfValue(e.value));
        return e;
      case "ident":
        return this.checkIdent(e);
      case "select":
        return this.checkSelect(e);
      case "call":
        return this.checkCall(e);
      case "list":
        return this.checkList(e);
      case "map":
        return this.checkMap(e);
      case "struct":
        return this.checkStruct(e);
      case "comprehension":
        return this.checkComprehension(e);
    }
  }

  private checkIdent(e: IdentExpr): Expr {
    const ident = this.resolveIdent(e.name);
    if (ident === undefined) {
      this.setType(e.id, ErrorType);
      this.undeclaredReference(e.id, e.name);
      return e;
    }
    this.setType(e.id, ident.type);
    if (!ident.local) this.references.set(e.id, { name: ident.name });
    return ident.name === e.name ? e : { kind: "ident", id: e.id, name: ident.name };
  }

  private checkSelect(e: SelectExpr): Expr {
    // A select chain may name a qualified variable or type (`a.b.c`) rather than select fields.
    const qualified = qualifiedName(e);
    if (qualified !== undefined) {
      const ident = this.resolveQualifiedIdent(qualified);
      if (ident !== undefined) {
        this.setType(e.id, ident.type);
        this.references.set(e.id, { name: ident.name });
        return { kind: "ident", id: e.id, name: ident.name };
      }
    }
    const selected = this.checkSelectField(e.id, e.operand, e.field, false);
    this.setType(e.id, substitute(this.mapping, e.testOnly ? BoolType : selected.type, false));
    return { ...e, operand: selected.operand };
  }

  /** The type of `operand.field`: a map's value type, an object's field type, dyn otherwise; optional in, optional out. */
  private checkSelectField(
    id: number,
    operandExpr: Expr,
    field: string,
    optional: boolean,
  ): { operand: Expr; type: CelType } {
    const operand = this.check(operandExpr);
    const operandType = substitute(this.mapping, this.typeOf(operandExpr.id), false);
    const { type: target, optional: wasOptional } = unwrapOptional(operandType);
    let result: CelType;
    switch (target.kind) {
      case "map":
        result = target.value;
        break;
      case "object":
        result = this.lookupField(id, target, field) ?? ErrorType;
        break;
      case "param":
        // Binding the parameter to dyn keeps later uses from assigning it a narrower type.
        this.assignable(DynType, target);
        result = DynType;
        break;
      default:
        if (!isDynOrError(target)) {
          this.report(id, `type '${formatCheckedType(target)}' does not support field selection`);
        }
        result = DynType;
    }
    return { operand, type: wasOptional || optional ? optionalType(result) : result };
  }

  private lookupField(id: number, object: ObjectType, field: string): CelType | undefined {
    const decl = object.fields.get(field);
    if (decl === undefined) this.report(id, `undefined field '${field}'`);
    return decl?.type;
  }

  private checkCall(e: CallExpr): Expr {
    if (e.function === OPTIONAL_SELECT) return this.checkOptionalSelect(e);
    const args = e.args.map((arg) => this.check(arg));
    if (e.target === undefined) {
      const fn = this.lookupFunction(e.function);
      if (fn === undefined) {
        this.undeclaredReference(e.id, e.function);
        this.setType(e.id, ErrorType);
        return { kind: "call", id: e.id, function: e.function, args };
      }
      this.resolveCall(e.id, fn, undefined, e.args);
      return { kind: "call", id: e.id, function: fn.name, args };
    }
    // `a.b.f(x)` calls either the namespaced function `a.b.f` or the member function `f` on `a.b`.
    const prefix = qualifiedName(e.target);
    if (prefix !== undefined) {
      const fn = this.lookupFunction(`${prefix}.${e.function}`);
      if (fn !== undefined) {
        this.resolveCall(e.id, fn, undefined, e.args);
        return { kind: "call", id: e.id, function: fn.name, args };
      }
    }
    const target = this.check(e.target);
    const fn = this.lookupFunction(e.function);
    if (fn === undefined) {
      this.setType(e.id, ErrorType);
      this.undeclaredReference(e.id, e.function);
    } else {
      this.resolveCall(e.id, fn, e.target, e.args);
    }
    return { kind: "call", id: e.id, target, function: e.function, args };
  }

  /** `a.?b`: typed as the field selection, made optional; the field name literal gets no type, as in cel-go. */
  private checkOptionalSelect(e: CallExpr): Expr {
    const [operand, field] = e.args;
    if (e.args.length !== 2 || e.target !== undefined || operand === undefined || field === undefined) {
      const member = e.target === undefined ? "" : " member call with";
      this.report(
        e.id,
        `unsupported optional field selection: incorrect signature.${member} argument count: ${e.args.length}`,
      );
      this.setType(e.id, ErrorType);
      return e;
    }
    if (field.kind !== "const" || typeof field.value !== "string") {
      this.report(field.id, "unsupported optional field selection: the field must be a string literal");
      this.setType(e.id, ErrorType);
      return e;
    }
    const selected = this.checkSelectField(e.id, operand, field.value, true);
    this.setType(e.id, substitute(this.mapping, selected.type, false));
    this.references.set(e.id, { overloadIds: [OPTIONAL_SELECT_OVERLOAD] });
    return { kind: "call", id: e.id, function: e.function, args: [selected.operand, field] };
  }

  private resolveCall(id: number, fn: FunctionDecl, target: Expr | undefined, args: readonly Expr[]): void {
    const resolution = this.resolveOverload(id, fn, target, args);
    if (resolution === undefined) {
      this.setType(id, ErrorType);
      return;
    }
    this.setType(id, resolution.type);
    this.references.set(id, { overloadIds: resolution.overloadIds });
  }

  /** The overloads whose signatures the argument types match; the result type is the first match's, or dyn when matches disagree. */
  private resolveOverload(
    id: number,
    fn: FunctionDecl,
    target: Expr | undefined,
    args: readonly Expr[],
  ): { type: CelType; overloadIds: string[] } | undefined {
    const isMember = target !== undefined;
    const argTypes = (isMember ? [target, ...args] : args).map((arg) => this.typeOf(arg.id));
    const overloadIds: string[] = [];
    let result: CelType | undefined;
    for (const overload of fn.overloads) {
      if (overload.member !== isMember) continue;
      if (LOGICAL_OPERATORS.has(fn.name)) return this.resolveLogical(overload, args, argTypes);
      const signature = this.instantiate(overload);
      const matched = isAssignableList(this.mapping, argTypes, signature.params);
      if (matched === undefined) continue;
      this.mapping = matched;
      overloadIds.push(overload.id);
      const overloadResult = substitute(this.mapping, signature.result, false);
      if (result === undefined) result = overloadResult;
      else if (!isDyn(result) && !isExactType(overloadResult, result)) result = DynType;
    }
    if (result === undefined) {
      const shown = argTypes.map((t) => substitute(this.mapping, t, true));
      this.report(
        id,
        `found no matching overload for '${fn.name}' applied to '${formatCallSignature(shown, isMember)}'`,
      );
      return undefined;
    }
    return { type: result, overloadIds };
  }

  /** `&&` and `||` require bool operands, each reported where it does not fit. */
  private resolveLogical(
    overload: OverloadDecl,
    args: readonly Expr[],
    argTypes: readonly CelType[],
  ): { type: CelType; overloadIds: string[] } | undefined {
    let failed = false;
    argTypes.forEach((argType, i) => {
      if (this.assignable(argType, BoolType)) return;
      this.typeMismatch((args[i] as Expr).id, BoolType, argType);
      failed = true;
    });
    return failed ? undefined : { type: BoolType, overloadIds: [overload.id] };
  }

  /** The overload's signature with its type parameters replaced by fresh type variables. */
  private instantiate(overload: OverloadDecl): { params: readonly CelType[]; result: CelType } {
    const names = overloadTypeParams(overload);
    if (names.length === 0) return overload;
    const fresh = new TypeMapping();
    for (const name of names) fresh.add(typeParam(name), this.newTypeVar());
    return {
      params: overload.params.map((p) => substitute(fresh, p, false)),
      result: substitute(fresh, overload.result, false),
    };
  }

  private checkList(e: ListExpr): Expr {
    const optionals = new Set(e.optionalIndices);
    let elemType: CelType | undefined;
    const elements = e.elements.map((element, i) => {
      const checked = this.check(element);
      let type = this.typeOf(element.id);
      if (optionals.has(i)) type = this.unwrapOptionalEntry(element.id, type);
      elemType = this.joinTypes(elemType, type);
      return checked;
    });
    this.setType(e.id, listType(elemType ?? this.newTypeVar()));
    return { ...e, elements };
  }

  private checkMap(e: MapExpr): Expr {
    let keyType: CelType | undefined;
    let valueType: CelType | undefined;
    const entries = e.entries.map((entry) => {
      const key = this.check(entry.key);
      keyType = this.joinTypes(keyType, this.typeOf(entry.key.id));
      const value = this.check(entry.value);
      let type = this.typeOf(entry.value.id);
      if (entry.optional) type = this.unwrapOptionalEntry(entry.value.id, type);
      valueType = this.joinTypes(valueType, type);
      return { ...entry, key, value };
    });
    if (keyType === undefined || valueType === undefined) {
      keyType = this.newTypeVar();
      valueType = this.newTypeVar();
    }
    this.setType(e.id, mapType(keyType, valueType));
    return { ...e, entries };
  }

  /** The value of an optional entry (`[?x]`, `{?k: v}`, `Msg{?f: v}`) must be optional; its value type is what joins. */
  private unwrapOptionalEntry(id: number, type: CelType): CelType {
    const unwrapped = unwrapOptional(type);
    if (!unwrapped.optional && !isDyn(unwrapped.type))
      this.typeMismatch(id, optionalType(unwrapped.type), unwrapped.type);
    return unwrapped.type;
  }

  /** Aggregate literal element types: the most general common type, dyn when they differ. */
  private joinTypes(previous: CelType | undefined, current: CelType): CelType {
    if (previous === undefined) return current;
    return this.assignable(previous, current) ? mostGeneral(previous, current) : DynType;
  }

  private checkStruct(e: StructExpr): Expr {
    const ident = this.lookupGlobal(e.messageName);
    if (ident === undefined) {
      this.undeclaredReference(e.id, e.messageName);
      this.setType(e.id, ErrorType);
      return e;
    }
    this.references.set(e.id, { name: ident.name });
    let messageName = ident.name;
    let messageType: CelType = ErrorType;
    if (ident.type.kind === "type") {
      const named = ident.type.type;
      const wellKnown = wellKnownMessageName(named);
      if (wellKnown !== undefined) {
        messageName = wellKnown;
        messageType = named;
      } else if (named.kind === "object") {
        messageName = named.name;
        messageType = named;
      } else {
        this.report(e.id, `'${typeName(named)}' is not a message type`);
      }
    } else if (ident.type.kind !== "error") {
      this.report(e.id, `'${typeName(ident.type)}' is not a type`);
    }
    this.setType(e.id, messageType);
    const fields = e.fields.map((field) => {
      const value = this.check(field.value);
      const fieldType = this.lookupMessageField(field.id, messageName, messageType, field.field) ?? ErrorType;
      let valueType = this.typeOf(field.value.id);
      if (field.optional) valueType = this.unwrapOptionalEntry(field.value.id, valueType);
      if (!this.assignable(fieldType, valueType)) {
        this.report(
          field.id,
          `expected type of field '${field.field}' is '${formatCheckedType(fieldType)}' but provided type is '${formatCheckedType(valueType)}'`,
        );
      }
      return { ...field, value };
    });
    return { ...e, messageName: ident.name, fields };
  }

  private lookupMessageField(
    id: number,
    messageName: string,
    messageType: CelType,
    field: string,
  ): CelType | undefined {
    if (messageType.kind === "object") return this.lookupField(id, messageType, field);
    const wellKnownFields = WELL_KNOWN_MESSAGE_FIELDS.get(messageName);
    if (wellKnownFields === undefined) {
      this.report(id, `unexpected failed resolution of '${messageName}'`);
      return undefined;
    }
    const type = wellKnownFields.get(field);
    if (type === undefined) this.report(id, `undefined field '${field}'`);
    return type;
  }

  private checkComprehension(e: ComprehensionExpr): Expr {
    const iterRange = this.check(e.iterRange);
    const accuInit = this.check(e.accuInit);
    const rangeType = substitute(this.mapping, this.typeOf(e.iterRange.id), false);
    const accuType = this.typeOf(e.accuInit.id);
    this.scopes.push(new Map([[e.accuVar, accuType]]));
    const { iterType, iterType2 } = this.iterationTypes(e, rangeType);
    const loopScope = new Map([[e.iterVar, iterType]]);
    if (e.iterVar2 !== undefined) loopScope.set(e.iterVar2, iterType2);
    this.scopes.push(loopScope);
    const loopCondition = this.check(e.loopCondition);
    this.assertType(e.loopCondition.id, BoolType);
    const loopStep = this.check(e.loopStep);
    this.assertType(e.loopStep.id, accuType);
    // The result sees the accumulator but no longer the iteration variables.
    this.scopes.pop();
    const result = this.check(e.result);
    this.scopes.pop();
    this.setType(e.id, substitute(this.mapping, this.typeOf(e.result.id), false));
    return { ...e, iterRange, accuInit, loopCondition, loopStep, result };
  }

  /** A list ranges over its elements (index and element with two variables), a map over its keys (key and value). */
  private iterationTypes(e: ComprehensionExpr, rangeType: CelType): { iterType: CelType; iterType2: CelType } {
    switch (rangeType.kind) {
      case "list":
        return e.iterVar2 === undefined
          ? { iterType: rangeType.elem, iterType2: rangeType.elem }
          : { iterType: IntType, iterType2: rangeType.elem };
      case "map":
        return { iterType: rangeType.key, iterType2: rangeType.value };
      case "dyn":
      case "error":
      case "param":
        this.assignable(DynType, rangeType);
        return { iterType: DynType, iterType2: DynType };
      default:
        this.report(
          e.iterRange.id,
          `expression of type '${formatCheckedType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
        );
        return { iterType: ErrorType, iterType2: ErrorType };
    }
  }

  /**
   * A simple name: a comprehension variable in scope shadows every container candidate and global of that
   * name (as cel-go's resolveSimpleIdent and the cel-spec scoping rules have it); `.y` names the root only.
   */
  private resolveIdent(name: string): ResolvedIdent | undefined {
    return this.lookupLocal(name) ?? this.lookupGlobal(name);
  }

  /** A dotted name whose first segment is a comprehension variable selects fields of it instead. */
  private resolveQualifiedIdent(name: string): ResolvedIdent | undefined {
    return this.lookupLocal(firstSegment(name)) === undefined ? this.lookupGlobal(name) : undefined;
  }

  /** The innermost comprehension variable of that name; a leading-dot name never matches one. */
  private lookupLocal(name: string): ResolvedIdent | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const type = this.scopes[i]?.get(name);
      if (type !== undefined) return { name, type, local: true };
    }
    return undefined;
  }

  /** Declared variables, then type names, for each candidate of the container in turn. */
  private lookupGlobal(name: string): ResolvedIdent | undefined {
    for (const candidate of candidateNames(this.env.container, name)) {
      const variable = this.env.variables.get(candidate);
      if (variable !== undefined) return { name: candidate, type: variable, local: false };
      const standardType = STANDARD_TYPE_IDENTIFIERS.get(candidate);
      if (standardType !== undefined) return { name: candidate, type: standardType, local: false };
      const named = this.env.types.get(candidate);
      if (named !== undefined) return { name: candidate, type: { kind: "type", type: named }, local: false };
    }
    return undefined;
  }

  private lookupFunction(name: string): FunctionDecl | undefined {
    for (const candidate of candidateNames(this.env.container, name)) {
      const fn = this.env.functions.get(candidate);
      if (fn !== undefined) return fn;
    }
    return undefined;
  }

  private assertType(id: number, expected: CelType): void {
    const actual = this.typeOf(id);
    if (!this.assignable(expected, actual)) this.typeMismatch(id, expected, actual);
  }

  /** isAssignable that keeps the type-parameter bindings it made when it succeeds. */
  private assignable(t1: CelType, t2: CelType): boolean {
    const matched = isAssignable(this.mapping, t1, t2);
    if (matched !== undefined) this.mapping = matched;
    return matched !== undefined;
  }

  private newTypeVar(): CelType {
    return typeParam(`_var${this.typeVarCount++}`);
  }

  private setType(id: number, type: CelType): void {
    this.types.set(id, type);
  }

  private typeOf(id: number): CelType {
    return this.types.get(id) ?? ErrorType;
  }

  private typeMismatch(id: number, expected: CelType, actual: CelType): void {
    this.report(id, `expected type '${formatCheckedType(expected)}' but found '${formatCheckedType(actual)}'`);
  }

  private undeclaredReference(id: number, name: string): void {
    this.report(id, `undeclared reference to '${name}' (in container '${this.env.container}')`);
  }

  private report(id: number, message: string): void {
    this.issues.push({ message, offset: this.ast.sourceInfo.positions.get(id) ?? -1, exprId: id });
  }
}

function unwrapOptional(type: CelType): { type: CelType; optional: boolean } {
  if (type.kind === "opaque" && type.name === "optional_type" && type.params[0] !== undefined) {
    return { type: type.params[0], optional: true };
  }
  return { type, optional: false };
}

const typeParamsByOverload = new WeakMap<OverloadDecl, readonly string[]>();

/** The type parameters an overload's signature mentions, collected as cel-go collects them. */
function overloadTypeParams(overload: OverloadDecl): readonly string[] {
  let names = typeParamsByOverload.get(overload);
  if (names === undefined) {
    const found = new Set<string>();
    for (const type of [...overload.params, overload.result]) collectTypeParams(type, found);
    names = [...found];
    typeParamsByOverload.set(overload, names);
  }
  return names;
}

function collectTypeParams(type: CelType, into: Set<string>): void {
  switch (type.kind) {
    case "param":
      into.add(type.name);
      return;
    case "list":
      collectTypeParams(type.elem, into);
      return;
    case "map":
      collectTypeParams(type.key, into);
      collectTypeParams(type.value, into);
      return;
    case "type":
      collectTypeParams(type.type, into);
      return;
    case "opaque":
      for (const p of type.params) collectTypeParams(p, into);
      return;
    default:
      return;
  }
}
