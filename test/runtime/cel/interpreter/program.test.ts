// Programs compiled through the environment (parser, checker, standard library), then planned.
import { describe, expect, it } from "vitest";
import {
  BytesType,
  DynType,
  IntType,
  listType,
  mapType,
  objectType,
  StringType,
} from "../../../../runtime/cel/common/cel-types.js";
import type { VariableDecl } from "../../../../runtime/cel/common/decls.js";
import type { ProgramOptions } from "../../../../runtime/cel/common/evaluation.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import { jsonToCel } from "../../../../runtime/cel/common/json-to-cel.js";
import { ArrayList, type CelError, CelOptional, type CelValue } from "../../../../runtime/cel/common/values.js";
import { CelEnv } from "../../../../runtime/cel/env.js";
import { LiteralObject } from "../../../../runtime/cel/interpreter/literals.js";
import { plan } from "../../../../runtime/cel/interpreter/planner.js";
import { optionalsLibrary } from "../../../../runtime/cel/library/optionals.js";
import { standardLibrary } from "../../../../runtime/cel/library/standard.js";

const scale = objectType(
  "Scale",
  new Map([
    ["replicas", { type: IntType }],
    ["maxReplicas", { type: IntType }],
    ["name", { type: StringType }],
  ]),
);

function evaluate(
  source: string,
  vars: Record<string, CelValue>,
  variables: VariableDecl[],
  options: ProgramOptions = {},
): { value: CelValue; cost: number } {
  const env = new CelEnv({ libraries: [standardLibrary, optionalsLibrary], variables });
  const ast = env.compile(source);
  if (ast instanceof CelIssues) throw new Error(ast.toDisplayString());
  return plan(ast, env, options).eval((name) => vars[name]);
}

describe("compiled programs", () => {
  const rule = "self.replicas <= self.maxReplicas && self.name.matches('^[a-z]+$')";

  it("evaluates a rule on an object and on a map(string, dyn)", () => {
    const fields = new Map<string, CelValue>([
      ["replicas", 3n],
      ["maxReplicas", 5n],
      ["name", "web"],
    ]);
    const object = new LiteralObject(scale, fields);
    const selfDecl = [{ name: "self", type: scale }];
    expect(evaluate(rule, { self: object }, selfDecl)).toEqual({ value: true, cost: 2 + 2 + 1 + 2 + 2 });
    const map = jsonToCel({ replicas: 6, maxReplicas: 5, name: "web" });
    expect(evaluate(rule, { self: map }, [{ name: "self", type: mapType(StringType, DynType) }]).value).toBe(false);
    const bad = jsonToCel({ replicas: "x", maxReplicas: 5, name: "web" });
    const result = evaluate(rule, { self: bad }, [{ name: "self", type: mapType(StringType, DynType) }]);
    expect((result.value as CelError).message).toBe("no such overload: _<=_(string, int)");
  });

  it("counts cel-go's costs for standard functions", () => {
    const vars = {
      input: "a".repeat(500),
      arg1: "b".repeat(500),
      str1: "val1",
      str2: "val2222222",
      b: new Uint8Array(500),
    };
    const decls = [
      { name: "input", type: StringType },
      { name: "arg1", type: StringType },
      { name: "str1", type: StringType },
      { name: "str2", type: StringType },
      { name: "b", type: BytesType },
    ];
    for (const [source, cost] of [
      ["input.matches('[0-9]')", 103],
      ["input.contains(arg1)", 2502],
      ["'abcdefg'.contains(str1 + str2)", 6],
      ["string(b)", 51],
      ["'12345678901234567890' == '123456789012345678901234567890'", 2],
      ["input.size()", 2],
    ] as const) {
      expect(evaluate(source, vars, decls).cost, source).toBe(cost);
    }
  });

  it("folds constant literals and conversions and looks up constant lists as sets", () => {
    const decls = [{ name: "x", type: IntType }];
    expect(evaluate("duration('1h') == duration('60m')", {}, decls)).toEqual({ value: true, cost: 1 });
    expect(evaluate("x in [1, 2, 3]", { x: 2n }, decls)).toEqual({ value: true, cost: 1 });
    expect(evaluate("x in [1, 2, 3]", { x: 4n }, decls).value).toBe(false);
    expect(evaluate("x in []", { x: 4n }, decls)).toEqual({ value: false, cost: 0 });
  });

  it("builds lists in comprehensions without sharing results", () => {
    const decls = [{ name: "l", type: listType(IntType) }];
    const l = new ArrayList([1n, 2n, 3n]);
    const doubled = evaluate("l.map(x, x * 2).filter(y, y > 2)", { l }, decls).value as ArrayList;
    expect(doubled.toArray()).toEqual([4n, 6n]);
    expect(evaluate("l.map(x, x * 2) == l.map(x, x * 2)", { l }, decls).value).toBe(true);
  });

  it("evaluates optional chains, and fails bad presence tests only when asked", () => {
    // The map is a folded constant: selecting from it costs the relative attribute and two steps.
    expect(evaluate("{'a': {'b': 1}}.?a.b.orValue(0)", {}, [])).toEqual({ value: 1n, cost: 3 });
    expect(evaluate("{'a': dyn(1)}.?a.b", {}, []).value).toBe(CelOptional.none);
    const strict = evaluate("{'a': dyn(1)}.?a.b", {}, [], { errorOnBadPresenceTest: true }).value;
    expect((strict as CelError).message).toBe("no such key: b");
    expect(evaluate("has(dyn(1).b)", {}, []).value).toBe(false);
    expect((evaluate("has(dyn(1).b)", {}, [], { errorOnBadPresenceTest: true }).value as CelError).message).toBe(
      "no such key: b",
    );
  });
});
