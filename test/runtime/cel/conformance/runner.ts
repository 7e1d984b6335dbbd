// Runs one SimpleTest through kapi's CEL engine the way cel-go's conformance runner does: parse (without
// the standard macros when disableMacros), check unless disableCheck (a check error fails the test unless
// the test expects exactly that error), compare the deduced type for typedResult, stop for checkOnly,
// evaluate with the bindings, then match the result: a value exactly (maps ignoring order, NaN matching
// NaN), or any error for evalError (recording when the expected message does not appear in ours). An
// absent matcher expects `true`.
import type { JsonObject } from "@bufbuild/protobuf";
import type { CheckedAst, ParsedAst } from "../../../../runtime/cel/common/ast.js";
import { formatType } from "../../../../runtime/cel/common/cel-types.js";
import type { CelLibrary, MacroDecl } from "../../../../runtime/cel/common/decls.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import { CelError, type CelValue } from "../../../../runtime/cel/common/values.js";
import { CelEnv } from "../../../../runtime/cel/env.js";
import { standardMacros } from "../../../../runtime/cel/parser/macros.js";
import { parse } from "../../../../runtime/cel/parser/parser.js";
import { formatValue, sameValue } from "./compare.js";
import { declsFromJson, NeedsProtobuf, typeFromJson, valueFromJson } from "./proto-json.js";
import type { ConformanceCase } from "./suite.js";

export type Phase = "parse" | "check" | "type" | "eval" | "crash";

export type Outcome =
  | { readonly status: "pass"; readonly messageMismatch?: { readonly expected: string; readonly actual: string } }
  | { readonly status: "fail"; readonly phase: Phase; readonly expected: string; readonly actual: string }
  | { readonly status: "needs-protobuf"; readonly reason: string };

export function runCase(c: ConformanceCase, libraries: readonly CelLibrary[]): Outcome {
  try {
    return run(c.test, libraries);
  } catch (e) {
    if (e instanceof NeedsProtobuf) return { status: "needs-protobuf", reason: e.message };
    const err = e as Error;
    const where = err.stack?.split("\n")[1]?.trim() ?? "";
    return { status: "fail", phase: "crash", expected: describeExpectation(c.test), actual: `${err.message} ${where}` };
  }
}

function run(test: JsonObject, libraries: readonly CelLibrary[]): Outcome {
  const { variables, functions } = declsFromJson((test.typeEnv ?? []) as JsonObject[]);
  const expectation = expectationOf(test);
  const env = new CelEnv({
    libraries: [...libraries, { name: "type_env", functions }],
    variables,
    ...(typeof test.container === "string" ? { container: test.container } : {}),
  });
  const source = String(test.expr);
  // As cel-go's conformance environment: backquoted field names allowed; disableMacros drops the
  // standard macros but keeps the extensions' (cel.bind, optMap, math.greatest, …).
  const macros = test.disableMacros === true ? withoutStandardMacros(env.macros) : env.macros;
  const parsed = parse(source, {
    macros,
    enableOptionalSyntax: env.enableOptionalSyntax,
    enableIdentEscapeSyntax: true,
  });
  if (parsed instanceof CelIssues) return compileFailure("parse", expectation, parsed);
  let ast: ParsedAst | CheckedAst = parsed;
  if (test.disableCheck !== true) {
    const checked = env.check(parsed);
    if (checked instanceof CelIssues) return compileFailure("check", expectation, checked);
    ast = checked;
    const deduced = expectedType(test);
    if (deduced !== undefined) {
      const actualType = checked.types.get(checked.expr.id);
      const actual = actualType ? formatType(actualType) : "<no type>";
      if (actual !== deduced) return { status: "fail", phase: "type", expected: deduced, actual };
    }
  }
  if (test.checkOnly === true) return { status: "pass" };
  const bindings = bindingsOf(test);
  // cel-go runs the suite with EnableErrorOnBadPresenceTest; Kubernetes leaves it off.
  const { value } = env.program(ast, { errorOnBadPresenceTest: true }).eval((name) => bindings.get(name));
  if (expectation.kind === "error") {
    if (!(value instanceof CelError)) return fail("eval", expectation, formatValue(value));
    return errorPass(expectation, value.message);
  }
  if (!sameValue(value, expectation.value)) return fail("eval", expectation, formatValue(value));
  return { status: "pass" };
}

function withoutStandardMacros(macros: ReadonlyMap<string, MacroDecl>): ReadonlyMap<string, MacroDecl> {
  return new Map([...macros].filter(([, m]) => !standardMacros.includes(m)));
}

type Expectation = { kind: "value"; value: CelValue } | { kind: "error"; messages: string[] };

function expectationOf(test: JsonObject): Expectation {
  if (isObject(test.value)) return { kind: "value", value: valueFromJson(test.value) };
  if (isObject(test.typedResult)) {
    const result = test.typedResult.result;
    return { kind: "value", value: isObject(result) ? valueFromJson(result) : true };
  }
  if (isObject(test.evalError)) return { kind: "error", messages: errorMessages(test.evalError) };
  if (isObject(test.anyEvalErrors)) {
    const sets = (test.anyEvalErrors.errors ?? []) as JsonObject[];
    return { kind: "error", messages: sets.flatMap(errorMessages) };
  }
  if ("unknown" in test || "anyUnknowns" in test) throw new Error("unknown results are not supported");
  return { kind: "value", value: true };
}

function errorMessages(set: JsonObject): string[] {
  return ((set.errors ?? []) as JsonObject[]).map((e) => String(e.message ?? ""));
}

function expectedType(test: JsonObject): string | undefined {
  const typed = test.typedResult;
  if (!isObject(typed) || !isObject(typed.deducedType)) return undefined;
  return formatType(typeFromJson(typed.deducedType));
}

function bindingsOf(test: JsonObject): Map<string, CelValue> {
  const out = new Map<string, CelValue>();
  const bindings = isObject(test.bindings) ? test.bindings : {};
  for (const [name, exprValue] of Object.entries(bindings)) {
    if (!isObject(exprValue) || !isObject(exprValue.value)) throw new Error(`binding ${name} is not a value`);
    out.set(name, valueFromJson(exprValue.value));
  }
  return out;
}

/**
 * A parse or check error fails the test, unless the test expects an error and names this one (cel-spec
 * writes some compile-time errors, such as a missing overload, as eval_error).
 */
function compileFailure(phase: Phase, expectation: Expectation, issues: CelIssues): Outcome {
  const text = issues.toDisplayString();
  if (expectation.kind === "error" && expectation.messages.some((m) => m !== "" && text.includes(m))) {
    return { status: "pass" };
  }
  return fail(phase, expectation, text);
}

/** Any error satisfies an error expectation; a different message is recorded, since users read cel-go's text. */
function errorPass(expectation: Expectation & { kind: "error" }, actual: string): Outcome {
  if (expectation.messages.some((m) => actual.includes(m))) return { status: "pass" };
  return { status: "pass", messageMismatch: { expected: expectation.messages.join(" | "), actual } };
}

function fail(phase: Phase, expectation: Expectation, actual: string): Outcome {
  return { status: "fail", phase, expected: formatExpectation(expectation), actual };
}

function formatExpectation(e: Expectation): string {
  return e.kind === "error" ? `error(${e.messages.map((m) => JSON.stringify(m)).join(" | ")})` : formatValue(e.value);
}

function describeExpectation(test: JsonObject): string {
  try {
    return formatExpectation(expectationOf(test));
  } catch (e) {
    return (e as Error).message;
  }
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
