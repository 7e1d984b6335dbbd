// Table tests for the cel-go extension libraries kapi implements outside the conformance files:
// two-variable comprehensions, cel.bind, optional helpers, math and base64, evaluated end to end
// through CelEnv (parse with the libraries' macros → check → plan → eval).
import { describe, expect, it } from "vitest";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import { CelError, type CelValue } from "../../../../runtime/cel/common/values.js";
import { CelEnv } from "../../../../runtime/cel/env.js";
import { formatValue } from "../conformance/compare.js";
import { conformanceLibraries } from "../conformance/libraries.js";

const env = new CelEnv({ libraries: conformanceLibraries });

function evaluate(expr: string): CelValue | CelIssues {
  const ast = env.compile(expr);
  if (ast instanceof CelIssues) return ast;
  return env.program(ast).eval(() => undefined).value;
}

/** Expressions that must evaluate to true. */
function expectTrue(cases: readonly string[]): void {
  for (const expr of cases) {
    it(expr, () => {
      const result = evaluate(expr);
      expect(result instanceof CelIssues ? result.toDisplayString() : formatValue(result)).toBe("true");
    });
  }
}

function expectEvalError(cases: readonly (readonly [string, string])[]): void {
  for (const [expr, message] of cases) {
    it(`${expr} fails with ${message}`, () => {
      const result = evaluate(expr);
      expect(result).toBeInstanceOf(CelError);
      expect((result as CelError).message).toContain(message);
    });
  }
}

function expectCompileError(cases: readonly (readonly [string, string])[]): void {
  for (const [expr, message] of cases) {
    it(`${expr} is refused: ${message}`, () => {
      const result = evaluate(expr);
      expect(result).toBeInstanceOf(CelIssues);
      expect((result as CelIssues).toDisplayString()).toContain(message);
    });
  }
}

describe("two-variable comprehensions", () => {
  expectTrue([
    "[1, 2, 3].all(i, j, i < j)",
    "!{'hello': 'world', 'taco': 'taco'}.all(k, v, k != v)",
    "{'h': ['hello', 'hi'], 'j': ['joke', 'jog']}.all(k, vals, vals.all(v, v.startsWith(k)))",
    "{'greeting': 'hello', 'farewell': 'goodbye'}.exists(k, v, k.startsWith('good') || v.endsWith('bye'))",
    "![1, 2, 4, 8, 16].exists(i, v, v == 1024 && i == 10)",
    "![1, 2, 1, 3, 1, 4].existsOne(i, v, i == 1 || v == 1)",
    "[1, 1, 2, 2, 3, 3].existsOne(i, v, i == 2 && v == 2)",
    "{'i': 0, 'j': 1, 'k': 2}.exists_one(i, v, i == 'l' || v == 1)",
    "[1, 2, 3].transformList(i, v, (i * v) + v) == [1, 4, 9]",
    "[1, 2, 3].transformList(i, v, i % 2 == 0, (i * v) + v) == [1, 9]",
    "{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(k, _, k).size() == 2",
    "[1, 2, 3].transformMap(i, v, (i * v) + v) == {0: 1, 1: 4, 2: 9}",
    "[1, 2, 3].transformMap(i, v, i % 2 == 0, (i * v) + v) == {0: 1, 2: 9}",
    "{'greeting': 'hello'}.transformMap(k, v, v + '!') == {'greeting': 'hello!'}",
    "{'greeting': 'hello'}.transformMapEntry(k, v, {v: k}) == {'hello': 'greeting'}",
    "[1, 2, 3].transformMapEntry(i, v, {v: i}) == {1: 0, 2: 1, 3: 2}",
    "{'hello': 'world', 'greetings': 'tacocat'}.transformMapEntry(k, v, v.reverse() == v, {k: v}) == {'greetings': 'tacocat'}",
    "{'a': 1}.transformMapEntry(k, v, {}) == {}",
    // The one-variable forms keep working beside the two-variable ones.
    "[1, 2, 3].all(x, x > 0) && [1, 2, 3].exists(x, x == 2) && [1, 2, 3].exists_one(x, x == 2)",
  ]);
  expectEvalError([
    [
      "{'greeting': 'aloha', 'farewell': 'aloha'}.transformMapEntry(k, v, {v: k})",
      "insert failed: key aloha already exists",
    ],
  ]);
  expectCompileError([
    ["[1].all(x, x, true)", "duplicate variable name: x"],
    ["[1].exists(__result__, v, true)", "iteration variable overwrites accumulator variable"],
    ["[1].transformList(i, v.w, v)", "argument must be a simple name"],
  ]);
});

describe("cel.bind", () => {
  expectTrue([
    "cel.bind(a, 'hello', cel.bind(b, 'world', a + b + b + a)) == 'helloworldworldhello'",
    "cel.bind(valid_values, [1, 2, 3], [3, 4].exists(e, e in valid_values))",
    "cel.bind(sum, 1 + 2 + 3, sum < 10 || sum > 20)",
  ]);
  expectCompileError([["cel.bind(a.b, 1, 2)", "cel.bind() variable names must be simple identifiers"]]);
});

describe("optionals", () => {
  expectTrue([
    "optional.of(1).optMap(x, x + 1) == optional.of(2)",
    "optional.none().optMap(x, x + 1) == optional.none()",
    "optional.of({'a': 1}).optFlatMap(m, m[?'a']) == optional.of(1)",
    "optional.of(0).hasValue() && !optional.ofNonZeroValue(0).hasValue()",
    "!optional.ofNonZeroValue([]).hasValue() && !optional.ofNonZeroValue({}).hasValue() && !optional.ofNonZeroValue(b'').hasValue()",
    "optional.ofNonZeroValue(timestamp(0)).hasValue() && !optional.ofNonZeroValue(duration('0s')).hasValue()",
    "[1, 2].first() == optional.of(1) && [1, 2].last() == optional.of(2) && [].first() == optional.none()",
    "optional.unwrap([optional.of(1), optional.none(), optional.of(3)]) == [1, 3]",
    "[optional.none(), optional.of('a')].unwrapOpt() == ['a']",
    "optional.of(1).or(optional.of(2)) == optional.of(1)",
    "optional.none().orValue(5) == 5",
    "{'a': 1}[?'b'].orValue(0) == 0 && [10][?0].value() == 10 && [10][?1] == optional.none()",
    "{'a': {'b': 2}}.?a.?b == optional.of(2) && {'a': {}}.?a.?b == optional.none()",
  ]);
  expectEvalError([["optional.none().value()", "optional.none() dereference"]]);
  expectCompileError([["optional.of(1).optMap(x.y, x)", "optMap() variable name must be a simple identifier"]]);
});

describe("math", () => {
  expectTrue([
    "math.greatest(1) == 1 && math.greatest(1u, 2u) == 2u && math.greatest(-42.0, -21.5, -100.0) == -21.5",
    "math.least([-42.0, -21.5, -100.0]) == -100.0 && math.least(1, 2.5, 3u) == 1",
    "math.ceil(1.2) == 2.0 && math.floor(-1.2) == -2.0 && math.round(-1.5) == -2.0 && math.trunc(-1.3) == -1.0",
    "math.abs(-1) == 1 && math.sign(-42) == -1 && math.sign(0.0) == 0.0 && math.sign(3u) == 1u",
    "math.isInf(1.0/0.0) && math.isNaN(0.0/0.0) && !math.isFinite(0.0/0.0)",
    "math.bitAnd(3, 5) == 1 && math.bitOr(1u, 2u) == 3u && math.bitXor(3u, 5u) == 6u && math.bitNot(0u) == 18446744073709551615u",
    "math.bitShiftLeft(-1, 2) == -4 && math.bitShiftRight(-1024, 3) == 2305843009213693824 && math.bitShiftLeft(1u, 200) == 0u",
    "math.sqrt(16) == 4.0 && math.sqrt(2.25) == 1.5",
  ]);
  expectEvalError([
    ["math.abs(-9223372036854775808)", "overflow"],
    ["math.bitShiftRight(1, -1)", "math.bitShiftRight() negative offset: -1"],
    ["math.greatest(dyn([]))", "math.@max(list) argument must not be empty"],
  ]);
  expectCompileError([
    ["math.least()", "math.least() requires at least one argument"],
    ["math.greatest('a')", "math.greatest() invalid single argument value"],
    ["math.greatest(1, 'a')", "math.greatest() simple literal arguments must be numeric"],
  ]);
});

describe("base64", () => {
  expectTrue([
    "base64.encode(b'hello') == 'aGVsbG8='",
    "base64.decode('aGVsbG8=') == b'hello' && base64.decode('aGVsbG8') == b'hello'",
    "base64.decode(base64.encode(b'\\x00\\xff\\xfe')) == b'\\x00\\xff\\xfe'",
  ]);
  expectEvalError([["base64.decode('a*b=')", "illegal base64 data at input byte 1"]]);
});
