import { describe, expect, it } from "vitest";
import { IntType, listType, objectType, optionalType, StringType } from "../../../../runtime/cel/common/cel-types.js";
import {
  ArrayList,
  CelError,
  CelList,
  type CelMap,
  CelObject,
  CelOptional,
  CelTypeValue,
  CelUint,
  type CelValue,
  HashMap,
} from "../../../../runtime/cel/common/values.js";
import {
  all,
  bind,
  call,
  checked,
  errorOf,
  exists,
  filter,
  fold,
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
  struct,
  testEnv,
  testFunctions,
  value,
} from "./fixtures.js";

const items = (v: CelValue): CelValue[] => (v instanceof CelList ? v.toArray() : []);

describe("identifiers", () => {
  it("reads variables and reports absent ones as cel-go does", () => {
    expect(value(ident("x"), { x: 3n })).toBe(3n);
    expect(errorOf(ident("x"))).toBe("no such attribute(s): x");
  });

  it("turns type names into type values", () => {
    const env = testEnv({ types: new Map([["k8s.Thing", objectType("k8s.Thing")]]) });
    expect(value(ident("int"))).toEqual(new CelTypeValue(IntType));
    expect((value(select(select(ident("google"), "protobuf"), "Duration")) as CelTypeValue).type.kind).toBe("duration");
    expect((value(select(ident("k8s"), "Thing"), {}, env) as CelTypeValue).type).toMatchObject({ name: "k8s.Thing" });
  });

  it("resolves parsed dotted names to the longest variable present", () => {
    const abc = select(select(ident("a"), "b"), "c");
    expect(value(abc, { "a.b.c": "whole" })).toBe("whole");
    expect(value(abc, { "a.b": new HashMap([["c", "entry"]]) })).toBe("entry");
    expect(errorOf(abc)).toBe("no such attribute(s): a.b.c");
  });

  it("prefers a declared dotted name and resolves names in the container", () => {
    const env = testEnv({ variables: new Map([["a.b", IntType]]), container: "ns" });
    expect(value(select(ident("a"), "b"), { "a.b": 1n }, env)).toBe(1n);
    expect(value(ident("x"), { "ns.x": 2n }, testEnv({ container: "ns" }))).toBe(2n);
    expect(errorOf(ident("x"), {}, testEnv({ container: "ns" }))).toBe("no such attribute(s): ns.x, x");
  });

  it("tells a global from a comprehension variable of the same name in checked trees", () => {
    const env = testEnv({ variables: new Map([["y", StringType]]) });
    const global = ident("y");
    const disambiguated = exists(list([lit("compre")]), "y", call("_==_", global, lit("y")));
    expect(run(checked(disambiguated, [], [[global, { name: "y" }]]), { y: "y" }, env).value).toBe(true);
    const shadowing = exists(list([lit(0n)]), "y", call("_==_", ident("y"), lit(0n)));
    expect(run(checked(shadowing), { y: "y" }, env).value).toBe(true);
  });

  it("uses the checker's reference for qualified names", () => {
    const e = ident("a.b.c");
    expect(run(checked(e, [[e, StringType]], [[e, { name: "a.b.c" }]]), { "a.b.c": "yeah" }).value).toBe("yeah");
  });
});

describe("selection and indexing", () => {
  const m = new HashMap([
    ["a", 1n],
    [2n, "two"],
  ]);

  it("selects map entries and reports missing keys", () => {
    expect(value(select(ident("m"), "a"), { m })).toBe(1n);
    expect(errorOf(select(ident("m"), "zz"), { m })).toBe("no such key: zz");
    expect(errorOf(select(ident("x"), "f"), { x: 1n })).toBe("no such key: f");
  });

  it("indexes maps across numeric key types", () => {
    for (const key of [lit(2n), lit(new CelUint(2n)), lit(2.0)]) {
      expect(value(call("_[_]", ident("m"), key), { m })).toBe("two");
    }
    expect(errorOf(call("_[_]", ident("m"), lit(2.5)), { m })).toBe("no such key: 2.5");
  });

  it("indexes lists by int, uint and whole doubles", () => {
    const l = list([lit(7n), lit(8n), lit(9n)]);
    expect(value(call("_[_]", l, lit(1n)))).toBe(8n);
    expect(value(call("_[_]", l, lit(new CelUint(2n))))).toBe(9n);
    expect(value(call("_[_]", l, lit(0.0)))).toBe(7n);
    expect(errorOf(call("_[_]", l, lit(3n)))).toBe("index out of bounds: 3");
    expect(errorOf(call("_[_]", l, lit(-1n)))).toBe("index out of bounds: -1");
    expect(errorOf(call("_[_]", l, lit(0.5)))).toBe("unsupported index value 0.5 in list");
    expect(errorOf(call("_[_]", l, lit("x")))).toBe("unsupported index type 'string' in list");
  });

  it("reads objects by field and treats unset fields as absent keys", () => {
    const type = objectType(
      "T",
      new Map([
        ["name", { type: StringType }],
        ["spec", { type: StringType }],
      ]),
    );
    const obj = new (class extends CelObject {
      readonly type = type;
      get(field: string): CelValue | undefined {
        return field === "name" ? "n" : undefined;
      }
      *fieldNames(): IterableIterator<string> {
        yield "name";
      }
    })();
    expect(value(select(ident("o"), "name"), { o: obj })).toBe("n");
    expect(errorOf(select(ident("o"), "spec"), { o: obj })).toBe("no such key: spec");
    expect(value(has(ident("o"), "name"), { o: obj })).toBe(true);
    expect(value(has(ident("o"), "spec"), { o: obj })).toBe(false);
    expect(value(has(ident("o"), "other"), { o: obj })).toBe(false);
  });

  it("tests presence on maps, and is false on values without fields", () => {
    expect(value(has(ident("m"), "a"), { m })).toBe(true);
    expect(value(has(ident("m"), "b"), { m })).toBe(false);
    expect(value(has(ident("x"), "b"), { x: 1n })).toBe(false);
    expect(errorOf(has(ident("x"), "b"), { x: new CelError("boom") })).toBe("boom");
  });
});

describe("optional selection and indexing", () => {
  const nested = map([lit("c"), map([lit("index"), lit("goodbye")])]);
  const of = (e: ReturnType<typeof lit>) => call("optional.of", e);
  const env = testEnv({
    functions: [
      ...testFunctions,
      {
        name: "optional.of",
        overloads: [
          {
            id: "optional_of",
            member: false,
            params: [IntType],
            result: optionalType(IntType),
            impl: ([v]) => new CelOptional(v as CelValue),
          },
        ],
      },
    ],
  });

  it("selects and indexes optionally", () => {
    expect(value(call("_?._", nested, lit("c")))).toBeInstanceOf(CelOptional);
    expect(value(call("_?._", nested, lit("x")))).toBe(CelOptional.none);
    expect(value(call("_[?_]", list([lit(1n)]), lit(5n)))).toBe(CelOptional.none);
    expect(value(call("_[?_]", list([lit(1n)]), lit(0n)))).toEqual(new CelOptional(1n));
    expect(value(call("_[?_]", map([lit("k"), lit(1n)]), lit("k")))).toEqual(new CelOptional(1n));
  });

  it("makes selection on optional values optional", () => {
    const chained = select(call("_?._", nested, lit("c")), "index");
    expect(value(chained)).toEqual(new CelOptional("goodbye"));
    expect(value(select(call("_?._", nested, lit("c")), "missing"))).toBe(CelOptional.none);
    expect(value(select(call("_?._", nested, lit("x")), "index"))).toBe(CelOptional.none);
    expect(value(call("_[_]", call("_?._", nested, lit("x")), lit(0n)))).toBe(CelOptional.none);
    expect(value(has(call("_?._", map(), lit("x")), "y"))).toBe(false);
    expect(value(has(call("_?._", map([lit("x"), map([lit("y"), lit("z")])]), lit("x")), "y"))).toBe(true);
    expect(value(select(of(lit(1n)), "f"), {}, env)).toBe(CelOptional.none);
  });

  it("builds lists and maps with optional entries", () => {
    const some = call("_?._", map([lit("a"), lit(1n)]), lit("a"));
    const none = call("_?._", map(), lit("a"));
    expect(items(value(list([some, none, lit(2n)], [0, 1])))).toEqual([1n, 2n]);
    const m = value(map([lit("x"), some, true], [lit("y"), none, true])) as CelMap;
    expect([...m.entries()]).toEqual([["x", 1n]]);
    expect(errorOf(list([lit(1n)], [0]))).toBe("cannot initialize optional list element from non-optional value 1");
  });

  it("evaluates or/orValue lazily", () => {
    const optEnv = testEnv({
      functions: [
        ...testFunctions,
        {
          name: "orValue",
          nonStrict: true,
          overloads: [
            { id: "optional_orValue_value", member: true, params: [optionalType(IntType), IntType], result: IntType },
          ],
        },
      ],
    });
    const none = call("_?._", map(), lit("a"));
    const some = call("_?._", map([lit("a"), lit(1n)]), lit("a"));
    expect(value(member(none, "orValue", lit(5n)), {}, optEnv)).toBe(5n);
    expect(value(member(some, "orValue", call("_/_", lit(1n), lit(0n))), {}, optEnv)).toBe(1n);
  });
});

describe("logical operators and conditionals", () => {
  const err = call("_/_", lit(1n), lit(0n));
  const cases: [unknown, unknown, CelValue | string][] = [
    [true, true, true],
    [true, false, false],
    [false, "err", false],
    ["err", false, false],
    [true, "err", "division by zero"],
    ["err", true, "division by zero"],
  ];
  const operand = (v: unknown) => (v === "err" ? err : lit(v as boolean));

  it.each(cases)("%s && %s", (a, b, want) => {
    const got = value(call("_&&_", operand(a), operand(b)));
    expect(got instanceof CelError ? got.message : got).toBe(want);
  });

  it("absorbs errors in || commutatively", () => {
    expect(value(call("_||_", err, lit(true)))).toBe(true);
    expect(value(call("_||_", lit(true), err))).toBe(true);
    expect(errorOf(call("_||_", lit(false), err))).toBe("division by zero");
    expect(errorOf(call("_||_", lit("a"), lit("b")))).toBe("no such overload");
  });

  it("evaluates only the chosen branch", () => {
    expect(value(call("_?_:_", lit(true), lit(1n), err))).toBe(1n);
    expect(value(call("_?_:_", lit(false), err, lit(2n)))).toBe(2n);
    expect(errorOf(call("_?_:_", lit("cows"), lit(1n), lit(2n)))).toBe("no such overload");
    expect(value(call("@not_strictly_false", err))).toBe(true);
    expect(value(call("@not_strictly_false", lit(false)))).toBe(false);
  });
});

describe("calls", () => {
  it("dispatches on argument values when unchecked", () => {
    expect(value(call("_+_", lit(1n), lit(2n)))).toBe(3n);
    expect(value(call("_+_", lit("a"), lit("b")))).toBe("ab");
    expect(value(member(lit("abc"), "size"))).toBe(3n);
    expect(value(call("size", list([lit(1n)])))).toBe(1n);
  });

  it("reports a missing overload with the argument types", () => {
    expect(errorOf(call("_+_", lit(1n), lit("b")))).toBe("no such overload: _+_(int, string)");
    expect(errorOf(call("nope", lit(1n)))).toBe("no such overload: nope(int)");
  });

  it("returns the first error argument of a strict function without calling it", () => {
    expect(errorOf(call("_+_", call("_/_", lit(1n), lit(0n)), ident("missing")))).toBe("division by zero");
    expect(value(call("firstError", call("_/_", lit(1n), lit(0n)), lit(1n)))).toBe("left: division by zero");
  });

  it("binds the checker's single overload and guards it when types are dynamic", () => {
    const x = ident("x");
    const e = call("_+_", x, lit(1n));
    const ast = checked(e, [[x, { kind: "dyn" }]], [[e, { overloadIds: ["add_int64"] }]]);
    expect(run(ast, { x: 2n }).value).toBe(3n);
    expect((run(ast, { x: "s" }).value as CelError).message).toBe("no such overload: _+_(string, int)");
  });

  it("resolves namespaced functions in parsed trees", () => {
    const env = testEnv({
      functions: [
        {
          name: "ns.twice",
          overloads: [
            { id: "twice", member: false, params: [IntType], result: IntType, impl: ([n]) => (n as bigint) * 2n },
          ],
        },
      ],
    });
    expect(value(member(ident("ns"), "twice", lit(4n)), {}, env)).toBe(8n);
  });

  it("turns exceptions from implementations into errors", () => {
    expect(errorOf(call("explode", lit(1n)))).toBe("boom");
  });

  it("folds conversions of constants", () => {
    expect(value(call("int", lit("12")))).toBe(12n);
  });

  it("checks membership in constant lists across numeric types", () => {
    const x = ident("x");
    const l = list([lit(1n), lit("a"), lit(2.5)]);
    const e = call("@in", x, l);
    const ast = checked(e, [], [[e, { overloadIds: ["in_list"] }]]);
    for (const [x, want] of [
      [1n, true],
      [1.0, true],
      [new CelUint(1n), true],
      ["a", true],
      [2.5, true],
      [3n, false],
      [new ArrayList([]), false],
    ] as [CelValue, boolean][]) {
      expect(run(ast, { x }).value).toBe(want);
    }
    const empty = call("@in", ident("y"), list([]));
    expect(run(checked(empty, [], [[empty, { overloadIds: ["in_list"] }]])).value).toBe(false);
    expect(value(call("@in", lit(2n), list([lit(1n), lit(2n)])))).toBe(true);
  });
});

describe("literals", () => {
  it("rejects repeated and invalid map keys", () => {
    expect(errorOf(map([lit(true), lit(1n)], [lit(false), lit(2n)], [lit(true), lit(3n)]))).toBe(
      "Failed with repeated key",
    );
    expect(errorOf(map([lit(0n), lit(1n)], [lit(new CelUint(0n)), lit(2n)]))).toBe("Failed with repeated key");
    expect(errorOf(map([lit(1.0), lit(1n)]))).toBe("unsupported key type: double");
    expect(errorOf(map([lit(null), lit(1n)]))).toBe("unsupported key type: null_type");
  });

  it("builds objects of declared types", () => {
    const type = objectType("k8s.Thing", new Map([["name", { type: StringType }]]));
    const env = testEnv({ types: new Map([["k8s.Thing", type]]), container: "k8s" });
    const obj = value(struct("Thing", [["name", lit("n")]]), {}, env) as CelObject;
    expect(obj.type.name).toBe("k8s.Thing");
    expect(obj.get("name")).toBe("n");
    expect(errorOf(struct("Thing", [["other", lit(1n)]]), {}, env)).toBe("no such field: other");
    expect(errorOf(struct("Nope", []), {}, env)).toBe("unknown type: Nope");
    expect(value(struct("google.protobuf.Duration", [["seconds", lit(2n)]]))).toMatchObject({ nanos: 2_000_000_000n });
  });
});

describe("comprehensions", () => {
  const l = list([lit(1n), lit(2n), lit(3n)]);

  it("folds lists", () => {
    expect(value(all(l, "x", call("_>_", ident("x"), lit(0n))))).toBe(true);
    expect(value(all(l, "x", call("_>_", ident("x"), lit(1n))))).toBe(false);
    expect(value(exists(l, "x", call("_==_", ident("x"), lit(2n))))).toBe(true);
    expect(items(value(mapMacro(l, "x", call("_+_", ident("x"), lit(10n)))))).toEqual([11n, 12n, 13n]);
    expect(items(value(filter(l, "x", call("_>_", ident("x"), lit(1n)))))).toEqual([2n, 3n]);
  });

  it("absorbs errors in all/exists as cel-go does", () => {
    const elems = list([lit(0n), lit(1n)]);
    const divides = call("_==_", call("_/_", lit(1n), ident("x")), lit(1n));
    expect(value(exists(elems, "x", divides))).toBe(true);
    expect(errorOf(all(elems, "x", divides))).toBe("division by zero");
  });

  it("iterates map keys, and index/value or key/value pairs with two variables", () => {
    const m = map([lit("a"), lit(1n)], [lit("b"), lit(2n)]);
    expect(value(exists(m, "k", call("_==_", ident("k"), lit("b"))))).toBe(true);
    const pairs = (range: ReturnType<typeof list>) =>
      fold({
        iterVar: "i",
        iterVar2: "v",
        iterRange: range,
        accuVar: "@result",
        accuInit: list([]),
        loopCondition: lit(true),
        loopStep: call("_+_", ident("@result"), list([list([ident("i"), ident("v")])])),
        result: ident("@result"),
      });
    expect(items(value(pairs(list([lit("x"), lit("y")])))).map(items)).toEqual([
      [0n, "x"],
      [1n, "y"],
    ]);
    expect(items(value(pairs(m))).map(items)).toEqual([
      ["a", 1n],
      ["b", 2n],
    ]);
  });

  it("does not iterate other values", () => {
    expect(errorOf(all(lit(1n), "x", lit(true)))).toBe("got 'int', expected iterable type");
  });

  it("shadows outer variables and keeps nested accumulators apart", () => {
    const nested = mapMacro(
      list([lit(1n), lit(2n)]),
      "x",
      mapMacro(list([lit(10n)]), "x", call("_+_", ident("x"), lit(1n))),
    );
    expect(items(value(nested)).map(items)).toEqual([[11n], [11n]]);
    expect(value(all(l, "x", exists(l, "y", call("_==_", ident("x"), ident("y")))))).toBe(true);
  });

  it("initializes cel.bind's variable only when used", () => {
    expect(value(bind("v", call("_/_", lit(1n), lit(0n)), lit(5n)))).toBe(5n);
    expect(value(bind("v", lit(2n), call("_+_", ident("v"), ident("v"))))).toBe(4n);
  });

  it("keeps list-building results independent across evaluations", () => {
    const e = mapMacro(ident("l"), "x", ident("x"));
    const program = run(parsed(e), { l: new ArrayList([1n]) });
    expect(items(program.value)).toEqual([1n]);
    expect(items(value(e, { l: new ArrayList([1n, 2n]) }))).toEqual([1n, 2n]);
  });

  it("accepts typed list variables", () => {
    const x = ident("xs");
    const e = all(x, "v", call("_>_", ident("v"), lit(0n)));
    expect(run(checked(e, [[x, listType(IntType)]]), { xs: new ArrayList([1n]) }).value).toBe(true);
  });
});
