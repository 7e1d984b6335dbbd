// Kubernetes' cost estimates: its library functions (k8s.io/apiserver/pkg/cel/library/cost_test.go, with
// that test's estimator sizing every string and bytes at most 12), rules over schemas with and without
// maxLength / maxItems / maxProperties (apiextensions' compilation_test.go TestCostEstimation), and the
// write-time refusal of rules estimated too expensive.
import { describe, expect, it } from "vitest";
import { estimateCost, type SizeEstimator } from "../../../../runtime/cel/checker/cost-estimator.js";
import { literalValidatorsLibrary } from "../../../../runtime/cel/checker/literal-validators.js";
import { CelIssues } from "../../../../runtime/cel/common/issues.js";
import { CelEnv } from "../../../../runtime/cel/env.js";
import { AuthorizerType } from "../../../../runtime/cel/library/kubernetes/authorizer-library.js";
import { kubernetesLibraries } from "../../../../runtime/cel/rules/base-environment.js";
import { compileRules } from "../../../../runtime/cel/rules/rule-checks.js";
import { compileSchemaRules } from "../../../../runtime/cel/rules/rule-compiler.js";
import { kubernetesEqualityCost } from "../../../../runtime/cel/rules/rule-cost.js";
import type { StructuralSchema } from "../../../../runtime/cel/rules/structural-schema.js";
import { formatFieldError } from "../../../../runtime/errors/format-field-error.js";

/** cost_test.go's testCostEstimator: any string or bytes is at most 12 long. */
const libraryTestSizes: SizeEstimator = {
  estimateSize: (_path, type) => (type.kind === "string" || type.kind === "bytes" ? { min: 0, max: 12 } : undefined),
  estimateCallCost: kubernetesEqualityCost,
};

function libraryCost(source: string): [number, number] {
  // kube's cost tests run without the literal validators (their set cases mix numeric types).
  const env = new CelEnv({
    libraries: kubernetesLibraries.filter((lib) => lib !== literalValidatorsLibrary),
    variables: [{ name: "authorizer", type: AuthorizerType }],
  });
  const ast = env.compile(source);
  if (ast instanceof CelIssues) throw new Error(ast.toDisplayString());
  const { min, max } = estimateCost(ast, env, libraryTestSizes, { presenceTestHasCost: false });
  return [min, max];
}

const intList = "[1, 2, 3, 4, 5]";
const uintList = "[uint(1), uint(2), uint(3), uint(4), uint(5)]";
const doubleList = "[1.0, 2.0, 3.0, 4.0, 5.0]";
const boolList = "[false, true, false, true, false]";
const stringList = "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']";
const bytesList =
  "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]";
const durationList = "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]";
const timestampList =
  "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), " +
  "timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), " +
  "timestamp('2011-01-05T00:00:00.000+01:00')]";

const libraryCases: [string, [number, number]][] = [
  // Lists: 10 for the literal, one comparison per element, string and bytes elements traversed too.
  ...[".sum()"].flatMap((op): [string, [number, number]][] => [
    [intList + op, [15, 15]],
    [uintList + op, [20, 20]],
    [doubleList + op, [15, 15]],
    [durationList + op, [20, 20]],
  ]),
  ...[".isSorted()", ".max()", ".min()"].flatMap((op): [string, [number, number]][] => [
    [intList + op, [15, 15]],
    [uintList + op, [20, 20]],
    [doubleList + op, [15, 15]],
    [boolList + op, [15, 15]],
    [stringList + op, [15, 25]],
    [bytesList + op, [25, 35]],
    [durationList + op, [20, 20]],
    [timestampList + op, [20, 20]],
  ]),
  ...[".indexOf", ".lastIndexOf"].flatMap((op): [string, [number, number]][] => [
    [`${intList}${op}(3)`, [15, 15]],
    [`${uintList}${op}(uint(3))`, [21, 21]],
    [`${doubleList}${op}(3.0)`, [15, 15]],
    [`${boolList}${op}(true)`, [15, 15]],
    [`${stringList}${op}('x')`, [15, 25]],
    [`${bytesList}${op}(bytes('x'))`, [26, 36]],
    [`${durationList}${op}(duration('3s'))`, [21, 21]],
    [`${timestampList}${op}(timestamp('2011-01-03T00:00:00.000+01:00'))`, [21, 21]],
    [`'01234567890123456789012345678901234567890123456789'${op}('123')`, [5, 5]],
  ]),
  // URLs.
  ...[".getScheme()", ".getHostname()", ".getHost()", ".getPort()", ".getEscapedPath()", ".getQuery()"].map(
    (op): [string, [number, number]] => [`url('https:://kubernetes.io/')${op}`, [4, 4]],
  ),
  ["url('https:://kubernetes.io/') == url('http://x.b')", [5, 5]],
  // Strings (cel-go's extension as Kubernetes prices it).
  ["'ABCDEFGHIJ abcdefghij'.lowerAscii()", [3, 3]],
  ["'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", [7, 9]],
  ["'ABCDEFGHIJ abcdefghij'.upperAscii()", [3, 3]],
  ["'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", [7, 9]],
  ["strings.quote('ABCDEFGHIJ abcdefghij')", [3, 3]],
  ["'abc 123 def 123'.replace('123', '456')", [3, 3]],
  ["'abc 123 def 123'.replace('', 'x')", [3, 3]],
  ["'abc 123 def 123'.replace('123', '')", [3, 3]],
  ["'abc 123 def 123'.replace('123', '456', 1)", [3, 3]],
  ["'abc 123 def 123'.split(' ')", [3, 3]],
  ["'abc 123 def 123'.split(' ', 1)", [3, 3]],
  ["'abc 123 def 123'.substring(5)", [2, 2]],
  ["'abc 123 def 123'.substring(5, 8)", [2, 2]],
  ["'  abc 123 def 123  '.trim()", [2, 2]],
  ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')", [11, 23]],
  ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", [10, 22]],
  ["'abc 123 def 123'.find('123')", [2, 2]],
  ["'abc 123 def 123'.findAll('123')", [2, 2]],
  ["'abc 123 def 123'.findAll('123', 1)", [2, 2]],
  // Authorizer: a check costs 350000, builders and accessors 1.
  ["authorizer.path('/healthz')", [2, 2]],
  ["authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend')", [6, 6]],
  ["authorizer.path('/healthz').check('get').allowed()", [350003, 350003]],
  [
    "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()",
    [350007, 350007],
  ],
  [
    "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').errored()",
    [350007, 350007],
  ],
  // Quantities: equality and arithmetic cost 1.
  [`quantity("12Mi")`, [1, 1]],
  [`isQuantity("20")`, [1, 1]],
  [`quantity("200M") == quantity("200M")`, [3, 3]],
  [`quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")`, [3, 6]],
  [
    `quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")`,
    [3, 9],
  ],
  [`quantity("50M").isLessThan(quantity("50Mi"))`, [3, 3]],
  [`quantity("200M").compareTo(quantity("0.2G")) > 0`, [4, 4]],
  [`quantity("50k").add(quantity("20")) == quantity("50.02k")`, [5, 5]],
  [`quantity("50k").sub(20) == quantity("49980")`, [4, 4]],
  [`quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() > 0`, [7, 7]],
  [`quantity("50.703k").asApproximateFloat() > 0.0`, [3, 3]],
  // Named formats: validate assumes the longest regular expression; equality traverses the name.
  [`format.named("dns1123subdomain")`, [1, 1]],
  [`format.named("dns1123Subdomain").value().validate("my-name")`, [34, 34]],
  [`format.named("dns1123Label").value() == format.named("dns1123Label").value()`, [5, 11]],
  // Sets: 1 + size × size (twice for equivalence).
  ["sets.contains([], [])", [21, 21]],
  ["sets.contains([1], [1])", [22, 22]],
  ["sets.contains([1, 2, 3, 4], [2, 3])", [29, 29]],
  ["sets.contains([[1], [2, 3]], [[2, 3.0]])", [53, 53]],
  ["!sets.contains([1], [1, 2])", [24, 24]],
  ["sets.equivalent([1, 2, 3], [3u, 2.0, 1])", [39, 39]],
  ["sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])", [69, 69]],
  ["!sets.equivalent([1, 2], [2u, 2, 2.0])", [34, 34]],
  ["sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])", [65, 65]],
  ["!sets.intersects([1], [1.1, 2u])", [24, 24]],
  // Semantic versions.
  [`semver("1.0.0")`, [1, 1]],
  [`semver("1.2.3").major()`, [2, 2]],
  [`semver("1.0.0").isLessThan(semver("1.1.0"))`, [3, 3]],
  [`semver("1.0.0").compareTo(semver("1.2.3"))`, [3, 3]],
  // Two-variable comprehensions.
  ["{'a': 1, 'b': 2}.all(k, v, v > 0)", [37, 41]],
  ["{'a': 1, 'b': 2}.exists(k, v, v > 0)", [39, 43]],
  ["{'a': 1, 'b': 2}.existsOne(k, v, v > 0)", [38, 40]],
  ["{'a': 1, 'b': 2}.transformMap(k, v, v + 1)", [71, 71]],
  ["{'a': 1, 'b': 2}.transformMap(k, v, v < 5, v + 1)", [67, 75]],
  ["{'a': 1, 'b': 2}.transformMapEntry(k, v, {k: v + 1})", [131, 131]],
  ["{'a': 1, 'b': 2}.transformMapEntry(k, v, v < 5, {k: v + 1})", [67, 135]],
  ["[1, 2].all(i, v, v > 0)", [17, 21]],
  ["[1, 2].exists(i, v, v > 0)", [19, 23]],
  ["[1, 2].existsOne(i, v, v > 0)", [18, 20]],
  ["[1, 2].transformList(i, v, v + 1)", [49, 49]],
  ["[1, 2].transformList(i, v, v < 5, v + 1)", [27, 53]],
];

describe("Kubernetes library cost estimates (cost_test.go)", () => {
  it.each(libraryCases)("%s", (source, want) => {
    expect(libraryCost(source)).toEqual(want);
  });
});

// ---- Schemas of apiextensions' TestCostEstimation; `max` is the maxLength / maxItems / maxProperties set, if any.

type SchemaGenerator = (max: number | undefined) => StructuralSchema;

function withRule(schema: StructuralSchema, rule: string): StructuralSchema {
  return { ...schema, "x-kubernetes-validations": [{ rule }] };
}

function bounded(key: "maxLength" | "maxItems" | "maxProperties", max: number | undefined): StructuralSchema {
  return max === undefined ? {} : { [key]: max };
}

/** A rule-test value type: a JSON type, a string format, or int-or-string. */
function valueType(name: string): StructuralSchema {
  if (name === "duration" || name === "date" || name === "date-time") return { type: "string", format: name };
  if (name === "int-or-string") return { "x-kubernetes-int-or-string": true };
  return { type: name as NonNullable<StructuralSchema["type"]> };
}

const requiredAndOptional: StructuralSchema = {
  type: "object",
  properties: { required: { type: "string" }, optional: { type: "string" } },
  required: ["required"],
};

const arrayWithRule =
  (items: string, rule: string): SchemaGenerator =>
  (max) =>
    withRule({ type: "array", items: valueType(items), ...bounded("maxItems", max) }, rule);

const arrayOfArraysWithRule =
  (items: string, rule: string): SchemaGenerator =>
  (max) =>
    withRule({ type: "array", items: { type: "array", items: valueType(items) }, ...bounded("maxItems", max) }, rule);

const objectArrayWithRule =
  (rule: string): SchemaGenerator =>
  (max) =>
    withRule({ type: "array", items: requiredAndOptional, ...bounded("maxItems", max) }, rule);

const mapArrayWithRule =
  (values: string, rule: string): SchemaGenerator =>
  (max) =>
    withRule(
      {
        type: "array",
        items: { type: "object", additionalProperties: valueType(values) },
        ...bounded("maxItems", max),
      },
      rule,
    );

const mapWithRule =
  (values: string, rule: string): SchemaGenerator =>
  (max) =>
    mapOf(valueType(values), rule)(max);

const mapOf =
  (values: StructuralSchema, rule: string): SchemaGenerator =>
  (max) =>
    withRule({ type: "object", additionalProperties: values, ...bounded("maxProperties", max) }, rule);

const stringWithRule =
  (rule: string, extra: StructuralSchema = {}): SchemaGenerator =>
  (max) =>
    withRule({ type: "string", ...extra, ...bounded("maxLength", max) }, rule);

const nestedSpecWithRule =
  (rule: string): SchemaGenerator =>
  (max) =>
    withRule(
      {
        type: "object",
        additionalProperties: { type: "string", ...bounded("maxLength", max) },
        ...bounded("maxProperties", max),
      },
      rule,
    );

/** A list of maps of objects: every level bounded (`all`) or only the maps of the items (`one`). */
const nestedSpecWithRootRule =
  (levels: "all" | "one", rule: string): SchemaGenerator =>
  (max) =>
    withRule(
      {
        type: "array",
        items: {
          type: "object",
          additionalProperties: {
            ...requiredAndOptional,
            ...(levels === "all" ? bounded("maxProperties", max) : {}),
          },
          ...bounded("maxProperties", max),
        },
        ...(levels === "all" ? bounded("maxItems", max) : {}),
      },
      rule,
    );

const boundedString = (max: number | undefined): StructuralSchema => ({ type: "string", ...bounded("maxLength", max) });

const atomicStringListWithRule =
  (rule: string): SchemaGenerator =>
  (max) =>
    withRule(
      { type: "array", "x-kubernetes-list-type": "atomic", items: boundedString(max), ...bounded("maxItems", max) },
      rule,
    );

interface EstimationCase {
  readonly generate: SchemaGenerator;
  /** Without bounds: the exact cost, or a cost it must reach. */
  readonly calculated: number | { readonly atLeast: number };
  readonly setMax: number;
  readonly set: number;
}

const unboundedTooExpensive = { atLeast: 100_000_000 };

const estimationCases: Record<string, EstimationCase> = {
  "number array with all": {
    generate: arrayWithRule("number", "self.all(x, true)"),
    calculated: 4718591,
    setMax: 10,
    set: 32,
  },
  "string array with all": {
    generate: arrayWithRule("string", "self.all(x, true)"),
    calculated: 3145727,
    setMax: 20,
    set: 62,
  },
  "boolean array with all": {
    generate: arrayWithRule("boolean", "self.all(x, true)"),
    calculated: 1887437,
    setMax: 5,
    set: 17,
  },
  "array of number arrays with all": {
    generate: arrayOfArraysWithRule("number", "self.all(x, true)"),
    calculated: 3145727,
    setMax: 100,
    set: 302,
  },
  "array of objects with all": {
    generate: objectArrayWithRule("self.all(x, true)"),
    calculated: 555128,
    setMax: 50,
    set: 152,
  },
  "map of numbers with all": {
    generate: mapWithRule("number", "self.all(x, true)"),
    calculated: 1348169,
    setMax: 10,
    set: 32,
  },
  "map of strings with all": {
    generate: mapWithRule("string", "self.all(x, true)"),
    calculated: 1179647,
    setMax: 3,
    set: 11,
  },
  "map of booleans with all": {
    generate: mapWithRule("boolean", "self.all(x, true)"),
    calculated: 943718,
    setMax: 100,
    set: 302,
  },
  "string with contains": {
    generate: stringWithRule("self.contains('test')"),
    calculated: 314574,
    setMax: 10,
    set: 5,
  },
  "string with startsWith": {
    generate: stringWithRule("self.startsWith('test')"),
    calculated: 2,
    setMax: 15,
    set: 2,
  },
  "string with endsWith": { generate: stringWithRule("self.endsWith('test')"), calculated: 2, setMax: 30, set: 2 },
  "concat string": {
    generate: stringWithRule(`size(self + "hello") > size("hello")`),
    calculated: 314578,
    setMax: 4,
    set: 7,
  },
  "index of array with numbers": {
    generate: arrayWithRule("number", "self[1] == 0.0"),
    calculated: 2,
    setMax: 5000,
    set: 2,
  },
  "index of array with strings": {
    generate: arrayWithRule("string", "self[1] == self[1]"),
    calculated: 314577,
    setMax: 8,
    set: 314577,
  },
  "O(n^2) loop with numbers": {
    generate: arrayWithRule("number", "self.all(x, self.all(y, true))"),
    calculated: unboundedTooExpensive,
    setMax: 10,
    set: 352,
  },
  "O(n^3) loop with numbers": {
    generate: arrayWithRule("number", "self.all(x, self.all(y, self.all(z, true)))"),
    calculated: unboundedTooExpensive,
    setMax: 10,
    set: 3552,
  },
  "regex matches simple": {
    generate: stringWithRule(`self.matches("x")`),
    calculated: 314574,
    setMax: 50,
    set: 22,
  },
  "regex matches empty string": {
    generate: stringWithRule(`"".matches("(((((((((())))))))))[0-9]")`),
    calculated: 7,
    setMax: 10,
    set: 7,
  },
  "regex matches empty regex": { generate: stringWithRule(`self.matches("")`), calculated: 1, setMax: 100, set: 1 },
  "map of strings with value length": {
    generate: nestedSpecWithRule("self.all(x, x.contains(self[x]))"),
    calculated: 2752507,
    setMax: 10,
    set: 72,
  },
  "set array maxLength to zero": {
    generate: arrayWithRule("number", "self[3] == 0.0"),
    calculated: 2,
    setMax: 0,
    set: 2,
  },
  "set map maxLength to zero": {
    generate: mapWithRule("number", `self["x"] == 0.0`),
    calculated: 2,
    setMax: 0,
    set: 2,
  },
  "set string maxLength to zero": { generate: stringWithRule(`self == "x"`), calculated: 2, setMax: 0, set: 1 },
  "set bytes maxLength to zero": {
    generate: stringWithRule(`self == b"x"`, { format: "byte" }),
    calculated: 2,
    setMax: 0,
    set: 1,
  },
  "set maxLength greater than estimated maxLength": {
    generate: arrayWithRule("number", "self.all(x, x == 0.0)"),
    calculated: 6291454,
    setMax: 3 * 1024 * 2048,
    set: 25165826,
  },
  "nested types with root rule with all supporting maxLength": {
    generate: nestedSpecWithRootRule("all", `self.all(x, x["y"].required == "z")`),
    calculated: 7340027,
    setMax: 10,
    set: 72,
  },
  "nested types with root rule with one supporting maxLength": {
    generate: nestedSpecWithRootRule("one", `self.all(x, x["y"].required == "z")`),
    calculated: 7340027,
    setMax: 10,
    set: 7340027,
  },
  "int-or-string array with all": {
    generate: arrayWithRule("int-or-string", "self.all(x, true)"),
    calculated: 4718591,
    setMax: 10,
    set: 32,
  },
  "index of array with int-or-strings": {
    generate: arrayWithRule("int-or-string", "self[0] == 5"),
    calculated: 3,
    setMax: 10,
    set: 3,
  },
  "index of array with booleans": {
    generate: arrayWithRule("boolean", "self[0] == false"),
    calculated: 2,
    setMax: 25,
    set: 2,
  },
  "index of array of objects": {
    generate: objectArrayWithRule("self[0] == null"),
    calculated: 2,
    setMax: 422,
    set: 2,
  },
  "index of array of array of numbers": {
    generate: arrayOfArraysWithRule("number", "self[0][0] == -1.0"),
    calculated: 3,
    setMax: 51,
    set: 3,
  },
  "array of number maps with all": {
    generate: mapArrayWithRule("number", "self.all(x, x.y == 25.2)"),
    calculated: 6291452,
    setMax: 12,
    set: 74,
  },
  "index of array of number maps": {
    generate: mapArrayWithRule("number", "self[0].x > 2.0"),
    calculated: 4,
    setMax: 3000,
    set: 4,
  },
  "duration array with all": {
    generate: arrayWithRule("duration", "self.all(x, true)"),
    calculated: 2359295,
    setMax: 5,
    set: 17,
  },
  "index of duration array": {
    generate: arrayWithRule("duration", "self[0].getHours() == 2"),
    calculated: 4,
    setMax: 525,
    set: 4,
  },
  "date array with all": {
    generate: arrayWithRule("date", "self.all(x, true)"),
    calculated: 725936,
    setMax: 15,
    set: 47,
  },
  "index of date array": {
    generate: arrayWithRule("date", "self[2].getDayOfMonth() == 13"),
    calculated: 4,
    setMax: 42,
    set: 4,
  },
  "date-time array with all": {
    generate: arrayWithRule("date-time", "self.all(x, true)"),
    calculated: 428963,
    setMax: 25,
    set: 77,
  },
  "index of date-time array": {
    generate: arrayWithRule("date-time", "self[2].getMinutes() == 45"),
    calculated: 4,
    setMax: 99,
    set: 4,
  },
  "map of int-or-strings with all": {
    generate: mapWithRule("int-or-string", "self.all(x, true)"),
    calculated: 1348169,
    setMax: 15,
    set: 47,
  },
  "map of objects with all": {
    generate: mapOf(requiredAndOptional, "self.all(x, true)"),
    calculated: 428963,
    setMax: 20,
    set: 62,
  },
  "map of number maps with all": {
    generate: mapOf({ type: "object", additionalProperties: { type: "number" } }, "self.all(x, true)"),
    calculated: 1179647,
    setMax: 10,
    set: 32,
  },
  "map of number arrays with all": {
    generate: mapOf({ type: "array", items: { type: "number" } }, "self.all(x, true)"),
    calculated: 1179647,
    setMax: 25,
    set: 77,
  },
  "map of durations with all": {
    generate: mapWithRule("duration", "self.all(x, true)"),
    calculated: 1048577,
    setMax: 5,
    set: 17,
  },
  "map of dates with all": {
    generate: mapWithRule("date", "self.all(x, true)"),
    calculated: 524288,
    setMax: 10,
    set: 32,
  },
  "map of date-times with all": {
    generate: mapWithRule("date-time", "self.all(x, true)"),
    calculated: 349526,
    setMax: 25,
    set: 77,
  },
  "extended library regex find": {
    generate: stringWithRule("self.find('[0-9]+') == ''"),
    calculated: 629147,
    setMax: 10,
    set: 11,
  },
  "extended library join": {
    generate: atomicStringListWithRule("self.join(' ') == 'aa bb'"),
    calculated: 329853068905,
    setMax: 10,
    set: 43,
  },
  "extended library isSorted": {
    generate: atomicStringListWithRule("self.isSorted() == true"),
    calculated: 329854432052,
    setMax: 10,
    set: 52,
  },
  "extended library replace": {
    generate: (max) =>
      withRule(
        {
          type: "object",
          properties: { str: boundedString(max), before: boundedString(2), after: boundedString(4) },
        },
        "self.str.replace(self.before, self.after) == 'does not matter'",
      ),
    calculated: 629154,
    setMax: 4,
    set: 12,
  },
  "extended library split": {
    generate: (max) =>
      withRule(
        { type: "object", properties: { str: boundedString(max), separator: boundedString(max) } },
        "self.str.split(self.separator) == []",
      ),
    calculated: 629160,
    setMax: 10,
    set: 22,
  },
  "extended library lowerAscii": {
    generate: (max) => withRule(boundedString(max), "self.lowerAscii() == 'lower!'"),
    calculated: 314575,
    setMax: 10,
    set: 6,
  },
  "check cost of size call": {
    generate: mapWithRule("integer", "oldSelf.size() == self.size()"),
    calculated: 5,
    setMax: 10,
    set: 5,
  },
  "check cost of timestamp comparison": {
    generate: mapWithRule("date-time", `self["a"] == self["b"]`),
    calculated: 8,
    setMax: 7,
    set: 8,
  },
  "check cost of duration comparison": {
    generate: mapWithRule("duration", `self["c"] == self["d"]`),
    calculated: 8,
    setMax: 42,
    set: 8,
  },
  "enums with maxLength equals to the longest possible value": {
    generate: stringWithRule("self.contains('A')", { enum: ["A", "B", "C", "LongValue"] }),
    calculated: 2,
    setMax: 1000,
    set: 401,
  },
};

function ruleMaxCost(schema: StructuralSchema): number {
  const compiled = compileSchemaRules(schema, false, { typeName: "selfType" });
  const rule = compiled?.rules[0];
  expect(rule?.error).toBeUndefined();
  return rule?.maxCost ?? Number.NaN;
}

describe("rule cost estimates from schema bounds (TestCostEstimation)", () => {
  it.each(Object.entries(estimationCases))("%s", (_name, c) => {
    const calculated = ruleMaxCost(c.generate(undefined));
    if (typeof c.calculated === "number") expect(calculated).toBe(c.calculated);
    else expect(calculated).toBeGreaterThanOrEqual(c.calculated.atLeast);
    expect(ruleMaxCost(c.generate(c.setMax))).toBe(c.set);
  });

  it("charges nothing for presence tests, as Kubernetes keeps them", () => {
    expect(ruleMaxCost(mapWithRule("number", "has(self.x)")(undefined))).toBe(1);
  });

  it("sizes oldSelf from the same schema as self", () => {
    expect(ruleMaxCost(stringWithRule("self.contains(oldSelf)")(10))).toBe(2 + 4 * 4);
  });
});

describe("write-time refusal of expensive rules", () => {
  const pairwise = "self.tags.all(x, self.tags.all(y, x == y))";
  const schemaWith = (tags: StructuralSchema, rules: readonly string[]): StructuralSchema => ({
    type: "object",
    properties: {
      spec: { type: "object", properties: { tags }, "x-kubernetes-validations": rules.map((rule) => ({ rule })) },
    },
  });
  const tagsOf = (maxItems: number): StructuralSchema => ({
    type: "array",
    maxItems,
    items: { type: "string", maxLength: 100 },
  });
  const problems = (schema: StructuralSchema): string[] =>
    compileRules(schema, { path: "spec.validation.openAPIV3Schema", typeName: "selfType" }).map((p) =>
      formatFieldError(p.error),
    );
  const rules = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations";
  const advice =
    "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";

  it("reports by how much a rule exceeds the per-expression limit", () => {
    // Each of 1000 tags against each: 1000 × (3 + 1000 × (3 + 42)) + 3 = 45006003, the limit 10^7.
    expect(problems(schemaWith(tagsOf(1000), [pairwise]))).toEqual([
      `${rules}[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 4.5x ${advice}`,
    ]);
  });

  it("reports the schema when its rules together exceed the per-schema limit", () => {
    // 440 tags: 8714643 per rule, under 10^7; twelve of them exceed 10^8.
    expect(problems(schemaWith(tagsOf(440), Array(12).fill(pairwise)))).toEqual([
      ...[0, 1, 2, 3].map(
        (i) =>
          `${rules}[${i}].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      ),
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.045757x ${advice}`,
    ]);
  });

  it("accepts the same rule once the list is small", () => {
    expect(problems(schemaWith(tagsOf(10), [pairwise]))).toEqual([]);
  });
});
