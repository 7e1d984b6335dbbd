import { describe, expect, it } from "vitest";
import { formatCheckedType } from "../../../../runtime/cel/checker/format-type.js";
import type { CheckedAst, Expr } from "../../../../runtime/cel/common/ast.js";
import {
  BoolType,
  type CelType,
  DynType,
  IntType,
  listType,
  mapType,
  opaqueType,
  optionalType,
  StringType,
  TimestampType,
} from "../../../../runtime/cel/common/cel-types.js";
import { checkedAdorner, toDebugString } from "../../../../runtime/cel/common/debug-string.js";
import type { CelLibrary, VariableDecl } from "../../../../runtime/cel/common/decls.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import type { CelValue } from "../../../../runtime/cel/common/values.js";
import { CelEnv } from "../../../../runtime/cel/env.js";
import { bindingsLibrary } from "../../../../runtime/cel/library/bindings.js";
import { comprehensionsLibrary } from "../../../../runtime/cel/library/comprehensions.js";
import { optionalsLibrary } from "../../../../runtime/cel/library/optionals.js";
import { standardLibrary } from "../../../../runtime/cel/library/standard.js";
import { celGoTestMessagesLibrary, message } from "./cel-go-test-env.js";

interface EnvSpec {
  readonly variables?: Record<string, CelType>;
  readonly libraries?: readonly CelLibrary[];
  readonly container?: string;
}

const extensions: readonly CelLibrary[] = [optionalsLibrary, comprehensionsLibrary, bindingsLibrary];

function envOf(spec: EnvSpec = {}): CelEnv {
  const variables: VariableDecl[] = Object.entries(spec.variables ?? {}).map(([name, type]) => ({ name, type }));
  return new CelEnv({
    libraries: [standardLibrary, ...extensions, ...(spec.libraries ?? [])],
    variables,
    ...(spec.container === undefined ? {} : { container: spec.container }),
  });
}

function compile(source: string, spec?: EnvSpec): CheckedAst {
  const result = envOf(spec).compile(source);
  if (result instanceof CelIssues) throw new Error(result.toDisplayString());
  return result;
}

function errors(source: string, spec?: EnvSpec): string {
  const result = envOf(spec).compile(source);
  if (!(result instanceof CelIssues)) throw new Error(`expected errors for ${source}`);
  return result.toDisplayString();
}

function typeOf(source: string, spec?: EnvSpec): string {
  const ast = compile(source, spec);
  return formatCheckedType(ast.types.get(ast.expr.id) ?? DynType);
}

/** The checked debug string with whitespace removed, to compare with cel-go's expectations. */
function debug(source: string, spec?: EnvSpec): string {
  const ast = compile(source, spec);
  return compact(toDebugString(ast.expr, checkedAdorner(ast, formatCheckedType)));
}

function compact(text: string): string {
  return text.replace(/\s+/g, "");
}

/** An expression and all expressions within it, outermost first. */
function subexpressions(e: Expr): Expr[] {
  return [e, ...children(e).flatMap(subexpressions)];
}

function children(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case "select":
      return [e.operand];
    case "call":
      return e.target === undefined ? e.args : [e.target, ...e.args];
    case "list":
      return e.elements;
    case "map":
      return e.entries.flatMap((entry) => [entry.key, entry.value]);
    case "struct":
      return e.fields.map((field) => field.value);
    case "comprehension":
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result];
    default:
      return [];
  }
}

// An object shaped like a Kubernetes kind's schema, as the schema conversion makes it.
const containerType = message("Object.spec.containers", { name: StringType, image: StringType });
const specType = message("Object.spec", {
  replicas: IntType,
  maxReplicas: IntType,
  containers: listType(containerType),
  selector: mapType(StringType, StringType),
  strategy: DynType,
});
const metadataType = message("Object.metadata", {
  name: StringType,
  labels: mapType(StringType, StringType),
  creationTimestamp: TimestampType,
});
const objectSpec: EnvSpec = {
  variables: { self: message("Object", { metadata: metadataType, spec: specType }) },
  libraries: [{ name: "schema types", types: [specType] }],
};

const quantity = opaqueType("kubernetes.Quantity");
const ip = opaqueType("net.IP");
const opaqueLibrary: CelLibrary = {
  name: "opaque fixtures",
  functions: [
    {
      name: "quantity",
      overloads: [{ id: "string_to_quantity", member: false, params: [StringType], result: quantity }],
    },
    {
      name: "isLessThan",
      overloads: [{ id: "quantity_is_less_than", member: true, params: [quantity, quantity], result: BoolType }],
    },
    { name: "ip", overloads: [{ id: "string_to_ip", member: false, params: [StringType], result: ip }] },
  ],
};
const opaqueSpec: EnvSpec = { libraries: [opaqueLibrary] };

describe("error messages in cel-go's words", () => {
  it.each<[string, string, EnvSpec?]>([
    ["foo", "ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo\n | ^"],
    [
      "x",
      "ERROR: <input>:1:1: undeclared reference to 'x' (in container 'k8s.io')\n | x\n | ^",
      { container: "k8s.io" },
    ],
    [
      "1 + 'a'",
      "ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | 1 + 'a'\n | ..^",
    ],
    [
      "'a'.size(1)",
      "ERROR: <input>:1:9: found no matching overload for 'size' applied to 'string.(int)'\n | 'a'.size(1)\n | ........^",
    ],
    ["'a'.fun()", "ERROR: <input>:1:8: undeclared reference to 'fun' (in container '')\n | 'a'.fun()\n | .......^"],
    ["1 && true", "ERROR: <input>:1:1: expected type 'bool' but found 'int'\n | 1 && true\n | ^"],
    ["[].length", "ERROR: <input>:1:3: type 'list(_var0)' does not support field selection\n | [].length\n | ..^"],
    ["1.foo", "ERROR: <input>:1:2: type 'int' does not support field selection\n | 1.foo\n | .^"],
    ["int{}", "ERROR: <input>:1:4: 'int' is not a message type\n | int{}\n | ...^"],
    [
      "[?'value']",
      "ERROR: <input>:1:3: expected type 'optional_type(string)' but found 'string'\n | [?'value']\n | ..^",
    ],
    [
      "{?'key': 'hi'}",
      "ERROR: <input>:1:10: expected type 'optional_type(string)' but found 'string'\n | {?'key': 'hi'}\n | .........^",
    ],
    [
      "x.all(y, y)",
      "ERROR: <input>:1:1: expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)\n | x.all(y, y)\n | ^",
      { variables: { x: IntType } },
    ],
  ])("%s", (source, expected, spec) => {
    expect(errors(source, spec)).toBe(expected);
  });

  it("reports every problem, in source order", () => {
    expect(errors("b.c + a")).toBe(
      [
        "ERROR: <input>:1:1: undeclared reference to 'b' (in container '')",
        " | b.c + a",
        " | ^",
        "ERROR: <input>:1:7: undeclared reference to 'a' (in container '')",
        " | b.c + a",
        " | ......^",
      ].join("\n"),
    );
  });
});

describe("Kubernetes object types", () => {
  it("types field selections from the schema", () => {
    expect(
      typeOf("self.spec.replicas <= self.spec.maxReplicas && self.metadata.name.matches('^[a-z]+$')", objectSpec),
    ).toBe("bool");
    expect(typeOf("self.spec.containers", objectSpec)).toBe("list(Object.spec.containers)");
    expect(typeOf("self.spec.containers.map(c, c.image)", objectSpec)).toBe("list(string)");
    expect(typeOf("self.metadata.labels.app", objectSpec)).toBe("string");
    expect(typeOf("self.metadata.creationTimestamp", objectSpec)).toBe("timestamp");
    expect(typeOf("self.spec.strategy.rollingUpdate.maxSurge", objectSpec)).toBe("dyn");
    expect(typeOf("has(self.spec.replicas) && has(self.metadata.labels.app)", objectSpec)).toBe("bool");
  });

  it("rejects fields the schema does not declare", () => {
    expect(errors("self.spec.replicaz > 0", objectSpec)).toBe(
      "ERROR: <input>:1:10: undefined field 'replicaz'\n | self.spec.replicaz > 0\n | .........^",
    );
    expect(errors("has(self.spec.nope)", objectSpec)).toBe(
      "ERROR: <input>:1:4: undefined field 'nope'\n | has(self.spec.nope)\n | ...^",
    );
    expect(errors("self.spec.containers.exists(c, c.imag == '')", objectSpec)).toBe(
      "ERROR: <input>:1:33: undefined field 'imag'\n | self.spec.containers.exists(c, c.imag == '')\n | ................................^",
    );
  });

  it("lets null compare with objects but not with scalars", () => {
    expect(typeOf("self.spec != null", objectSpec)).toBe("bool");
    expect(errors("self.spec.replicas == null", objectSpec)).toBe(
      "ERROR: <input>:1:20: found no matching overload for '_==_' applied to '(int, null)'\n | self.spec.replicas == null\n | ...................^",
    );
  });

  it("checks object literals against the fields", () => {
    expect(typeOf("Object.spec{replicas: 1}", objectSpec)).toBe("Object.spec");
    expect(errors("Object.spec{replicas: 'a', nope: 1}", objectSpec)).toBe(
      [
        "ERROR: <input>:1:21: expected type of field 'replicas' is 'int' but provided type is 'string'",
        " | Object.spec{replicas: 'a', nope: 1}",
        " | ....................^",
        "ERROR: <input>:1:32: undefined field 'nope'",
        " | Object.spec{replicas: 'a', nope: 1}",
        " | ...............................^",
      ].join("\n"),
    );
  });

  it("types optional field selection", () => {
    expect(typeOf("self.spec.?replicas", objectSpec)).toBe("optional_type(int)");
    expect(typeOf("self.spec.?replicas.orValue(1)", objectSpec)).toBe("int");
    expect(typeOf("self.?spec.replicas", objectSpec)).toBe("optional_type(int)");
    expect(typeOf("self.metadata.labels[?'app']", objectSpec)).toBe("optional_type(string)");
  });
});

describe("opaque library types", () => {
  it("compare by name", () => {
    expect(typeOf("quantity('1').isLessThan(quantity('2'))", opaqueSpec)).toBe("bool");
    expect(typeOf("quantity('1') == quantity('2')", opaqueSpec)).toBe("bool");
    expect(typeOf("[quantity('1'), quantity('2')]", opaqueSpec)).toBe("list(kubernetes.Quantity)");
    expect(typeOf("[quantity('1'), ip('::1')]", opaqueSpec)).toBe("list(dyn)");
    expect(typeOf("optional.of(quantity('1'))", opaqueSpec)).toBe("optional_type(kubernetes.Quantity)");
  });

  it("name themselves in overload errors", () => {
    expect(errors("quantity('1') < quantity('2')", opaqueSpec)).toBe(
      "ERROR: <input>:1:15: found no matching overload for '_<_' applied to '(kubernetes.Quantity, kubernetes.Quantity)'\n | quantity('1') < quantity('2')\n | ..............^",
    );
    expect(errors("quantity('1').isLessThan(1)", opaqueSpec)).toBe(
      "ERROR: <input>:1:25: found no matching overload for 'isLessThan' applied to 'kubernetes.Quantity.(int)'\n | quantity('1').isLessThan(1)\n | ........................^",
    );
  });
});

describe("references and resolved names", () => {
  it("narrows calls to the overloads the argument types match", () => {
    const ast = compile("[1] + [2]");
    expect(ast.references.get(ast.expr.id)).toEqual({ overloadIds: ["add_list"] });
    const dynamic = compile("dyn(1) + dyn(2)");
    expect(formatCheckedType(dynamic.types.get(dynamic.expr.id) ?? IntType)).toBe("dyn");
    expect(dynamic.references.get(dynamic.expr.id)?.overloadIds).toEqual(
      expect.arrayContaining(["add_int64", "add_string", "add_list", "add_timestamp_duration"]),
    );
  });

  it("keeps the cross-type comparisons Kubernetes enables", () => {
    expect(debug("1 <= 1.0 && 1u < 1")).toBe(
      compact(`_&&_(
        _<=_(1~int, 1~double)~bool^less_equals_int64_double,
        _<_(1u~uint, 1~int)~bool^less_uint64_int64
      )~bool^logical_and`),
    );
    expect(debug("lists.filter(x, x > 1.5)", { variables: { lists: DynType } })).toContain(
      "~bool^greater_double|greater_int64_double|greater_uint64_double",
    );
  });

  it("resolves a select chain naming a variable to that variable", () => {
    const ast = compile("a.b.c + 1", { variables: { "a.b.c": IntType } });
    const [operand] = (ast.expr as Extract<Expr, { kind: "call" }>).args;
    expect(operand).toEqual({ kind: "ident", id: operand?.id, name: "a.b.c" });
    expect(ast.references.get(operand?.id ?? 0)).toEqual({ name: "a.b.c" });
  });

  it("resolves names in the container, then its parents, and from the root with a leading dot", () => {
    const variables = { x: StringType, "k8s.io.x": IntType };
    expect(debug("x", { variables, container: "k8s.io" })).toBe("k8s.io.x~int^k8s.io.x");
    expect(debug(".x", { variables, container: "k8s.io" })).toBe("x~string^x");
    expect(debug("x", { variables, container: "k8s.io.sub" })).toBe("k8s.io.x~int^k8s.io.x");
  });

  it("calls namespaced functions without a receiver", () => {
    const encode: CelLibrary = {
      name: "encode",
      functions: [
        { name: "base64.encode", overloads: [{ id: "b64", member: false, params: [StringType], result: StringType }] },
      ],
    };
    expect(debug("base64.encode('a')", { libraries: [encode] })).toBe(compact(`base64.encode("a"~string)~string^b64`));
    expect(debug("encode('a')", { libraries: [encode], container: "base64" })).toBe(
      compact(`base64.encode("a"~string)~string^b64`),
    );
  });

  it("scopes comprehension variables to the loop", () => {
    expect(typeOf("[1].all(x, x > 0) && x == 'a'", { variables: { x: StringType } })).toBe("bool");
    expect(typeOf("[1, 2].all(i, v, i < v)")).toBe("bool");
    expect(typeOf("{'a': 1}.all(k, v, k == 'a' && v > 0)")).toBe("bool");
    expect(typeOf("{'a': 1}.transformMap(k, v, v * 2)")).toBe("map(string, int)");
    expect(typeOf("cel.bind(x, [1, 2], x.map(y, y * 2))")).toBe("list(int)");
  });

  describe("comprehension variables shadow globals (cel-spec namespace_shadowing)", () => {
    const container = "com.example";

    /** The identifiers of a checked tree with the reference name each carries. */
    function identReferences(ast: CheckedAst): string[] {
      return subexpressions(ast.expr).flatMap((e) =>
        e.kind === "ident" ? [`${e.name}^${ast.references.get(e.id)?.name ?? "local"}`] : [],
      );
    }

    function evaluate(source: string, spec: EnvSpec, bindings: Record<string, CelValue>): CelValue {
      const env = envOf(spec);
      const ast = env.compile(source);
      if (ast instanceof CelIssues) throw new Error(ast.toDisplayString());
      return env.program(ast).eval((name) => bindings[name]).value;
    }

    it("resolves a simple name to the comprehension variable before any container candidate", () => {
      const spec = { variables: { "com.example.y": StringType }, container };
      const ast = compile("[0].exists(y, y == 0)", spec);
      expect(identReferences(ast).filter((r) => r.startsWith("y^"))).toEqual(["y^local"]);
      expect(evaluate("[0].exists(y, y == 0)", spec, { "com.example.y": "global" })).toBe(true);
    });

    it("resolves the first segment of a dotted name to the comprehension variable, selecting its fields", () => {
      const spec = { variables: { "com.example.y.z": StringType }, container };
      expect(typeOf("[{'z': 0}].map(y, y.z)", spec)).toBe("list(int)");
      expect(typeOf("[{'z': 0}].map(y, y.z)", { variables: { "y.z": StringType } })).toBe("list(int)");
      expect(evaluate("[{'z': 0}].exists(y, y.z == 0)", spec, { "com.example.y.z": "global" })).toBe(true);
    });

    it("resolves a leading-dot name in the root scope only, with the global's reference", () => {
      const spec = { variables: { y: StringType, "y.z": StringType, "com.example.y.z": IntType }, container };
      const ast = compile("[1].exists(y, .y == 'y' && .y.z == 'y.z' && y == 1)", spec);
      expect(identReferences(ast).filter((r) => r.startsWith("y"))).toEqual(["y^y", "y.z^y.z", "y^local"]);
      const bindings = { y: "y", "y.z": "y.z", "com.example.y.z": 42n };
      expect(evaluate("[1].exists(y, .y == 'y' && .y.z == 'y.z' && y == 1)", spec, bindings)).toBe(true);
      expect(errors("[1].exists(y, .y == 1)", { container })).toContain(
        "undeclared reference to '.y' (in container 'com.example')",
      );
    });

    it("resolves to the innermost comprehension variable", () => {
      const spec = { variables: { y: StringType, "com.example.y": StringType }, container };
      expect(typeOf("[1].map(y, ['a'].map(y, y))", spec)).toBe("list(list(string))");
      expect(evaluate("[1].exists(y, [0].exists(y, y == 0))", spec, { y: "g", "com.example.y": "g" })).toBe(true);
    });

    it("lets cel.bind variables shadow globals and container-qualified names", () => {
      expect(evaluate("cel.bind(x, 0, x == 0)", { variables: { x: IntType } }, { x: 1n })).toBe(true);
      const qualified = { variables: { "com.example.x": IntType }, container };
      expect(evaluate("cel.bind(x, 0, x == 0)", qualified, { "com.example.x": 1n })).toBe(true);
      const selector = { variables: { "com.example.x.y": IntType }, container };
      expect(evaluate("cel.bind(x, {'y': 0}, x.y == 0)", selector, { "com.example.x.y": 1n })).toBe(true);
    });

    it("keeps globals visible where no comprehension variable has their name", () => {
      const spec = { variables: { "com.example.y": IntType }, container };
      const ast = compile("[1].exists(x, x == y)", spec);
      expect(identReferences(ast)).toContain("com.example.y^com.example.y");
    });
  });

  it("types type names as type values", () => {
    expect(debug("type(1) == int && type('') == string")).toContain("int~type(int)^int");
    expect(typeOf("list")).toBe("type(list(dyn))");
    expect(typeOf("map")).toBe("type(map(dyn, dyn))");
    expect(typeOf("type")).toBe("type(type)");
    expect(typeOf("null_type")).toBe("type(null)");
    expect(typeOf("google.protobuf.Timestamp")).toBe("type(timestamp)");
    expect(typeOf("google.protobuf.Duration{seconds: 5}")).toBe("duration");
    expect(typeOf("Object.spec", objectSpec)).toBe("type(Object.spec)");
  });

  it("records the type of every expression", () => {
    const ast = compile("self.spec.containers.filter(c, c.name in ['a', 'b']).size() > 0", objectSpec);
    const missing = subexpressions(ast.expr)
      .map((e) => e.id)
      .filter((id) => !ast.types.has(id));
    expect(missing).toEqual([]);
  });
});

// cel-go's checker tests with optional syntax, which the generated suite could not run.
describe("optional syntax (cel-go's expectations)", () => {
  const optionalTypeOnly: CelLibrary = {
    name: "optional_type as cel-go's test registry declares it",
    types: [opaqueType("optional_type")],
    parserOptions: { enableOptionalSyntax: true },
  };
  const stringMap = mapType(StringType, StringType);
  const optionalMap = optionalType(stringMap);

  it.each<[string, string, EnvSpec]>([
    [
      "a.?b",
      `_?._(a~map(string, string)^a, "b")~optional_type(string)^select_optional_field`,
      { variables: { a: stringMap } },
    ],
    ["a.b", "a~optional_type(map(string, string))^a.b~optional_type(string)", { variables: { a: optionalMap } }],
    ["a.dynamic", "a~optional_type(dyn)^a.dynamic~optional_type(dyn)", { variables: { a: optionalType(DynType) } }],
    ["has(a.dynamic)", "a~optional_type(dyn)^a.dynamic~test-only~~bool", { variables: { a: optionalType(DynType) } }],
    [
      "has(a.?b.c)",
      `_?._(a~optional_type(map(string, dyn))^a, "b")~optional_type(dyn)^select_optional_field.c~test-only~~bool`,
      { variables: { a: optionalType(mapType(StringType, DynType)) } },
    ],
    [
      "{?'key': {'a': 'b'}.?value}",
      `{?"key"~string:_?._({"a"~string:"b"~string}~map(string, string), "value")~optional_type(string)^select_optional_field}~map(string, string)`,
      {},
    ],
    [
      "{?'key': {'a': 'b'}.?value}.key",
      `{?"key"~string:_?._({"a"~string:"b"~string}~map(string, string), "value")~optional_type(string)^select_optional_field}~map(string, string).key~string`,
      {},
    ],
    [
      "{?'nested': a.b}",
      `{?"nested"~string:a~optional_type(map(string, string))^a.b~optional_type(string)}~map(string, string)`,
      { variables: { a: optionalMap } },
    ],
    [
      "[?a, ?b, 'world']",
      `[a~optional_type(string)^a, b~optional_type(string)^b, "world"~string]~list(string)`,
      { variables: { a: optionalType(StringType), b: optionalType(StringType) } },
    ],
    [
      "TestAllTypes{?single_int32: {}.?i}",
      `google.expr.proto2.test.TestAllTypes{?single_int32:_?._({}~map(dyn, int), "i")~optional_type(int)^select_optional_field}~google.expr.proto2.test.TestAllTypes^google.expr.proto2.test.TestAllTypes`,
      { container: "google.expr.proto2.test", libraries: [celGoTestMessagesLibrary] },
    ],
  ])("%s", (source, expected, spec) => {
    expect(debug(source, spec)).toBe(compact(expected));
  });

  it("type(a.?b) == optional_type", () => {
    const env = new CelEnv({
      libraries: [standardLibrary, optionalTypeOnly],
      variables: [{ name: "a", type: stringMap }],
    });
    const ast = env.compile("type(a.?b) == optional_type");
    if (ast instanceof CelIssues) throw new Error(ast.toDisplayString());
    expect(compact(toDebugString(ast.expr, checkedAdorner(ast, formatCheckedType)))).toBe(
      compact(`_==_(
        type(_?._(a~map(string, string)^a, "b")~optional_type(string)^select_optional_field)~type(optional_type(string))^type,
        optional_type~type(optional_type)^optional_type
      )~bool^equals`),
    );
  });

  it("TestAllTypes{?single_int32: 1}", () => {
    const spec: EnvSpec = { container: "google.expr.proto2.test", libraries: [celGoTestMessagesLibrary] };
    expect(errors("TestAllTypes{?single_int32: 1}", spec)).toBe(
      "ERROR: <input>:1:29: expected type 'optional_type(int)' but found 'int'\n | TestAllTypes{?single_int32: 1}\n | ............................^",
    );
  });
});
