import { describe, expect, it } from "vitest";
import { CelIssues } from "../../../../../runtime/cel/common/issues.js";
import { ArrayList, CelError, CelUint, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { CelEnv } from "../../../../../runtime/cel/env.js";
import { standardLibrary } from "../../../../../runtime/cel/library/standard.js";

const env = new CelEnv({ libraries: [standardLibrary] });

function evaluate(source: string): { value: CelValue; cost: number } {
  const ast = env.compile(source);
  if (ast instanceof CelIssues) throw new Error(ast.toDisplayString());
  return env.program(ast).eval(() => undefined);
}

/** The value, with a list as a plain array for comparison. */
function resultOf(source: string): unknown {
  const { value } = evaluate(source);
  if (value instanceof CelError) throw new Error(`${source}: ${value.message}`);
  return value instanceof ArrayList ? value.items : value;
}

describe("standard library through parse, check and evaluation", () => {
  it.each<[string, unknown]>([
    ["1 + 2 * 3", 7n],
    ["7 / 2 + 7 % 2", 4n],
    ["-(5)", -5n],
    ["2u * 3u", new CelUint(6n)],
    ["1.5 + 2.0", 3.5],
    ["'a' + 'b'", "ab"],
    ["b'a' + b'b' == b'ab'", true],
    ["[1, 2] + [3]", [1n, 2n, 3n]],
    ["size('πέντε') + 'abc'.size() + size([1]) + {1: 2}.size() + size(b'xy')", 12n],
    ["dyn(1) == 1.0 && 1 < 1.5 && 2u > 1 && 1.0 <= 1u", true],
    ["'a' < 'b' && b'a' < b'b' && false < true", true],
    ["string(1.5e10) + ' ' + string(-0.0045) + ' ' + string(123u) + ' ' + string(true)", "1.5e+10 -0.0045 123 true"],
    ["int('12') + int(2.9) + int(3u) + int(timestamp('1970-01-01T00:00:10Z'))", 27n],
    ["uint(3) == 3u && double(1) == 1.0 && bool('true') && bytes('ÿ') == b'\\xc3\\xbf'", true],
    ["timestamp('2009-02-13T23:31:30Z').getHours('America/Los_Angeles')", 15n],
    ["timestamp('2009-02-13T23:31:30.5Z').getMilliseconds()", 500n],
    ["duration('1h2m3.5s').getSeconds()", 3723n],
    ["string(duration('1h2m3.5s'))", "3723.5s"],
    ["string(timestamp('2009-02-13T23:31:30Z') + duration('1.5s'))", "2009-02-13T23:31:31.5Z"],
    ["timestamp('2009-02-13T23:31:30Z') - timestamp('2009-02-13T00:00:00Z') == duration('23h31m30s')", true],
    ["timestamp('2009-02-13T23:31:30Z') > timestamp('2009-02-13T23:31:29.999Z')", true],
    ["'abc'.matches('^[a-z]+$') && matches('abc', 'b') && !'ab1'.matches('^[a-z]+$')", true],
    ["'hello'.contains('ell') && 'hello'.startsWith('he') && 'hello'.endsWith('lo')", true],
    ["[1, 2, 3][1]", 2n],
    ["{'a': 1}['a']", 1n],
    ["2 in [1, 2] && 'a' in {'a': 1} && !(3 in [1, 2])", true],
    ["type(1) == int && type('a') == string && type(type(1)) == type", true],
    ["type([1]) == type(['a']) && type({1: 2}) == type({'a': true})", true],
    ["true ? 1 : 2", 1n],
    ["!true || false", false],
    ["dyn([1, 'one'])[1]", "one"],
    ["[1, 2, 3].exists(x, x > 2) && [1, 2, 3].all(x, x > 0)", true],
  ])("%s", (source, expected) => {
    expect(resultOf(source)).toEqual(expected);
  });

  it.each<[string, string]>([
    ["9223372036854775807 + 1", "integer overflow"],
    ["0u - 1u", "unsigned integer overflow"],
    ["1 / 0", "division by zero"],
    ["1 % 0", "modulus by zero"],
    ["uint(-1)", "unsigned integer overflow"],
    ["int(1e99)", "integer overflow"],
    ["int('x')", "type conversion error from 'string' to 'int'"],
    ["string(b'\\xff')", "invalid UTF-8 in bytes, cannot convert to string"],
    ["timestamp('10000-01-01T00:00:00Z')", "type conversion error from 'string' to 'google.protobuf.Timestamp'"],
    ["timestamp(253402300800)", "timestamp overflow"],
    ["timestamp('9999-12-31T23:59:59Z') + duration('1s')", "timestamp overflow"],
    ["duration('1d')", "type conversion error from 'string' to 'google.protobuf.Duration'"],
    ["'abc'.matches('(')", "error parsing regexp: missing closing ): `(`"],
    ["timestamp('2009-02-13T23:31:30Z').getHours('Nowhere/City')", "unknown time zone Nowhere/City"],
    ["dyn(0.0/0.0) < 1.0", "NaN values cannot be ordered"],
  ])("%s fails with %s", (source, message) => {
    const { value } = evaluate(source);
    expect(value).toBeInstanceOf(CelError);
    expect((value as CelError).message).toBe(message);
  });

  it("charges the regex formula for matches", () => {
    // ceil((1 + 3) × 0.1) × ceil(8 × 0.25)
    expect(evaluate("'abc'.matches('^[a-z]+$')").cost).toBe(2);
  });
});
