// Run-time cost as cel-go's tracker counts it with Kubernetes' settings (OptOptimize constant folding,
// PresenceTestHasCost(false)); the figures follow cel-go's interpreter/runtimecost_test.go.
import { describe, expect, it } from "vitest";
import type { Expr } from "../../../../runtime/cel/common/ast.js";
import { ArrayList, type CelError, type CelValue, HashMap } from "../../../../runtime/cel/common/values.js";
import { COST_LIMIT_EXCEEDED_MESSAGE, CostLimitExceededError } from "../../../../runtime/cel/interpreter/frame.js";
import {
  all,
  bind,
  call,
  checked,
  has,
  ident,
  list,
  lit,
  map,
  mapMacro,
  member,
  parsed,
  run,
  select,
} from "./fixtures.js";

const costOf = (e: Expr, vars: Record<string, CelValue> = {}): number => run(parsed(e), vars).cost;

const nestedMap = new HashMap([["testAttr", new HashMap([["nestedAttr", "0"]])]]);
const input = new HashMap([
  ["key", "v"],
  ["single_int32", 0n],
]);

describe("run-time cost", () => {
  it.each<[string, Expr, Record<string, CelValue>, number]>([
    ["constant", lit("Hello World!"), {}, 0],
    ["identifier", ident("input"), { input }, 1],
    ["map index", call("_[_]", ident("input"), lit("key")), { input }, 2],
    ["list index", call("_[_]", ident("input"), lit(0n)), { input: new ArrayList(["v"]) }, 2],
    ["field", select(ident("input"), "single_int32"), { input }, 2],
    ["computed index", call("_[_]", ident("input"), call("_+_", lit("ke"), lit("y"))), { input }, 3],
    ["index by variable", call("_[_]", ident("input"), ident("k")), { input, k: "key" }, 2],
    ["presence test", has(select(ident("input"), "testAttr"), "nestedAttr"), { input: nestedMap }, 2],
    ["constant list", list([lit(1n), lit(2n), lit(3n)]), {}, 0],
    ["list", list([ident("x"), lit(1n)]), { x: 1n }, 11],
    ["constant map", map([lit("a"), lit(1n)]), {}, 0],
    ["map", map([lit("a"), ident("x")]), { x: 1n }, 31],
    ["select on a literal", select(map([lit("a"), ident("x")]), "a"), { x: 1n }, 33],
    ["index on a constant list", call("_[_]", list([lit(1n)]), lit(0n)), {}, 2],
    ["all over empty input", all(ident("input"), "x", lit(true)), { input: new ArrayList([]) }, 2],
    ["all over a constant list", all(list([lit(1n), lit(2n), lit(3n)]), "x", lit(true)), {}, 10],
    ["conditional", call("_?_:_", lit(true), lit(1n), lit(2n)), {}, 0],
    ["conditional, false branch", call("_?_:_", lit(false), lit(false), call("_>_", lit(1n), lit(3n))), {}, 1],
    [
      "conditional as operand",
      call("_>_", call("_?_:_", call("_>_", lit(1n), lit(2n)), lit(5n), lit(3n)), lit(1n)),
      {},
      2,
    ],
    [
      "or as operand",
      call("_==_", call("_||_", call("_>_", lit(1n), lit(2n)), call("_>_", lit(2n), lit(1n))), lit(true)),
      {},
      3,
    ],
    [
      "or chain",
      call("_||_", call("_||_", call("_||_", ident("a"), ident("b")), ident("c")), ident("d")),
      { a: false, b: false, c: false, d: false },
      4,
    ],
    ["and short-circuit", call("_&&_", lit(false), ident("a")), {}, 0],
  ])("%s", (_, e, vars, want) => {
    expect(costOf(e, vars)).toBe(want);
  });

  it("does not count the root of a conditional's branch (cel-go's attribute branches)", () => {
    const input1 = new ArrayList([new HashMap()]);
    const e = all(call("_?_:_", call("_>_", ident("x"), lit(2n)), ident("input1"), ident("input2")), "y", lit(true));
    expect(costOf(e, { x: 1n, input1, input2: input1 })).toBe(6);
  });

  it("counts every iteration of a comprehension over a map", () => {
    const m = new HashMap([["val", new HashMap([["single_int32", 0n]])]]);
    const e = all(
      ident("input"),
      "k",
      call("_>_", select(call("_[_]", ident("input"), ident("k")), "single_int32"), lit(3n)),
    );
    expect(costOf(e, { input: m })).toBe(9);
  });

  it("counts list building as literal plus concatenation", () => {
    expect(costOf(mapMacro(ident("l"), "x", ident("x")), { l: new ArrayList([1n, 2n]) })).toBe(
      1 + 2 * (1 + 1 + 10 + 1) + 1,
    );
  });

  it("pays for cel.bind's initializer only when the variable is read", () => {
    expect(costOf(bind("v", call("_+_", lit(1n), lit(2n)), lit(5n)))).toBe(0);
    expect(costOf(bind("v", call("_+_", lit(1n), lit(2n)), call("_+_", ident("v"), ident("v"))))).toBe(4);
  });

  it("uses overload cost hooks and costs added by implementations", () => {
    const e = member(ident("s"), "contains", ident("t"));
    expect(costOf(e, { s: "a".repeat(100), t: "b".repeat(20) })).toBe(2 + 20);
    expect(costOf(call("cost", lit(7n)))).toBe(8);
  });

  it("counts set membership lookups as free", () => {
    const e = call("@in", ident("x"), list([lit(1n), lit(2n)]));
    expect(run(checked(e, [], [[e, { overloadIds: ["in_list"] }]]), { x: 2n }).cost).toBe(1);
  });

  it("stops at the limit with cel-go's error", () => {
    const l = new ArrayList(Array.from({ length: 1000 }, (_, i) => BigInt(i)));
    const e = all(ident("l"), "x", call("_>_", ident("x"), lit(-1n)));
    const unlimited = run(parsed(e), { l });
    expect(unlimited.value).toBe(true);
    expect(unlimited.cost).toBe(1 + 1000 * 5 + 1);
    const limited = run(parsed(e), { l }, undefined, 100);
    expect(limited.value).toBeInstanceOf(CostLimitExceededError);
    expect((limited.value as CelError).message).toBe(COST_LIMIT_EXCEEDED_MESSAGE);
    expect(limited.cost).toBeLessThan(200);
    expect(run(parsed(e), { l }, undefined, unlimited.cost).value).toBe(true);
  });

  it("reports the limit even when the error was absorbed", () => {
    const l = new ArrayList(Array.from({ length: 100 }, (_, i) => BigInt(i)));
    const e = call("_||_", all(ident("l"), "x", call("_>_", ident("x"), lit(-1n))), lit(true));
    expect(run(parsed(e), { l }, undefined, 50).value).toBeInstanceOf(CostLimitExceededError);
  });
});
