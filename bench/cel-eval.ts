// CEL evaluation speed: µs per evaluation of a typical validation rule, with `self` an object of a declared
// type (fields converted on read, as schema values are) and a map(string, dyn) of decoded JSON, against
// the equivalent hand-written JavaScript in the same process (native RegExp, and RE2 as CEL uses it).
// Each figure is the best of `rounds` runs of `n` evaluations after a warm-up run.
// Usage: npx tsx bench/cel-eval.ts [n] [rounds]

import { DynType, IntType, mapType, type ObjectType, objectType, StringType } from "../runtime/cel/common/cel-types.js";
import { CelIssues } from "../runtime/cel/common/issues.js";
import { jsonToCel } from "../runtime/cel/common/json-to-cel.js";
import { CelObject, type CelValue } from "../runtime/cel/common/values.js";
import { CelEnv } from "../runtime/cel/env.js";
import { regexMatches } from "../runtime/cel/library/standard/regex.js";
import { standardLibrary } from "../runtime/cel/library/standard.js";

const n = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 5);
const rule = "self.replicas <= self.maxReplicas && self.name.matches('^[a-z]+$')";
const json = { replicas: 3, maxReplicas: 5, name: "web" };

const selfType = objectType(
  "Scale",
  new Map([
    ["replicas", { type: IntType }],
    ["maxReplicas", { type: IntType }],
    ["name", { type: StringType }],
  ]),
);

/** An object over decoded JSON that converts a field when it is read, as Kubernetes' schema values do. */
class JsonObject extends CelObject {
  constructor(
    readonly type: ObjectType,
    private readonly fields: Readonly<Record<string, unknown>>,
  ) {
    super();
  }
  get(field: string): CelValue | undefined {
    return Object.hasOwn(this.fields, field) ? jsonToCel(this.fields[field]) : undefined;
  }
  *fieldNames(): IterableIterator<string> {
    yield* Object.keys(this.fields);
  }
}

function compile(selfDecl: typeof selfType | ReturnType<typeof mapType>) {
  const env = new CelEnv({ libraries: [standardLibrary], variables: [{ name: "self", type: selfDecl }] });
  const ast = env.compile(rule);
  if (ast instanceof CelIssues) throw new Error(ast.toDisplayString());
  return env.program(ast);
}

/** Best µs per call over the rounds. */
function measure(run: () => unknown): number {
  for (let i = 0; i < n; i++) run();
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < n; i++) run();
    best = Math.min(best, ((performance.now() - start) * 1000) / n);
  }
  return best;
}

const objectProgram = compile(selfType);
const objectSelf = new JsonObject(selfType, json);
const mapProgram = compile(mapType(StringType, DynType));
const mapSelf = jsonToCel(json);
const objectActivation = (name: string): CelValue | undefined => (name === "self" ? objectSelf : undefined);
const mapActivation = (name: string): CelValue | undefined => (name === "self" ? mapSelf : undefined);
for (const result of [objectProgram.eval(objectActivation), mapProgram.eval(mapActivation)]) {
  if (result.value !== true) throw new Error(`unexpected result ${String(result.value)}`);
}

const pattern = /^[a-z]+$/;
const figures: [string, number][] = [
  ["CEL, self an object", measure(() => objectProgram.eval(objectActivation))],
  ["CEL, self a map(string, dyn)", measure(() => mapProgram.eval(mapActivation))],
  ["JavaScript, native RegExp", measure(() => json.replicas <= json.maxReplicas && pattern.test(json.name))],
  [
    "JavaScript, RE2 (re2js) as CEL uses it",
    measure(() => json.replicas <= json.maxReplicas && regexMatches(json.name, "^[a-z]+$") === true),
  ],
];
console.log(rule);
for (const [label, micros] of figures) console.log(`${label.padEnd(40)} ${micros.toFixed(3)} µs/eval`);
