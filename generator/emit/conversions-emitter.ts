// Conversion functions between the versions of a group (generated/<groupDir>/conversions.ts) and the table the
// runtime dispatches through (generated/conversions.ts). Each version converts to and from the kind's hub.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { analyzeConversions, type GroupConversions, type PropertyPlan, type ValuePlan } from "../conversion/analyze.js";
import { type HandWrittenLookup, handWrittenIn } from "../conversion/hand-written.js";
import type { SchemaSet } from "../schema/schema-set.js";
import { type EmitResult, type Emitter, type GeneratedFile, generatedHeader } from "./emitter.js";

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function access(object: string, name: string): string {
  return identifier.test(name) ? `${object}.${name}` : `${object}[${JSON.stringify(name)}]`;
}

function key(name: string): string {
  return identifier.test(name) ? name : JSON.stringify(name);
}

/** The expression converting `value` by `plan`, noting the helpers it uses. */
function valueExpression(plan: ValuePlan, value: string, helpers: Set<string>, depth = 0): string {
  switch (plan.kind) {
    case "assign":
      return value;
    case "clone":
      return `structuredClone(${value})`;
    case "object":
      helpers.add("convertObject");
      return `convertObject(${value}, ${plan.fn})`;
    case "list": {
      helpers.add("convertList");
      const item = depth === 0 ? "item" : `item${depth}`;
      return `convertList(${value}, (${item}) => ${valueExpression(plan.item, item, helpers, depth + 1)})`;
    }
    case "map": {
      helpers.add("convertMap");
      const item = depth === 0 ? "item" : `item${depth}`;
      return `convertMap(${value}, (${item}) => ${valueExpression(plan.value, item, helpers, depth + 1)})`;
    }
  }
}

function propertyLine(property: PropertyPlan, helpers: Set<string>): string {
  const target = access("out", property.name);
  if ("apiVersion" in property) return `  ${target} = ${JSON.stringify(property.apiVersion)};`;
  const source = access("src", property.name);
  return `  if (${source} !== undefined) ${target} = ${valueExpression(property.plan, source, helpers)};`;
}

function groupFile(group: GroupConversions): GeneratedFile {
  const helpers = new Set<string>();
  const functions = group.generated.map((pair) => {
    const lines = pair.properties.map((p) => propertyLine(p, helpers));
    return [
      `export function ${pair.fn}(src: JsonObject): JsonObject {`,
      "  const out: JsonObject = {};",
      ...lines,
      "  return out;",
      "}",
    ].join("\n");
  });
  const imports: string[] = [];
  if (group.handWritten.length > 0) {
    imports.push(
      `import {\n${group.handWritten.map((fn) => `  ${fn},\n`).join("")}} from "../../runtime/conversion/functions/${group.groupDir}.js";`,
    );
  }
  imports.push(`import type { KindConversions } from "../../runtime/conversion/convert.js";`);
  const valueImports = [...[...helpers].sort(), ...(functions.length > 0 ? ["type JsonObject"] : [])];
  if (valueImports.length > 0) {
    imports.push(`import { ${valueImports.join(", ")} } from "../../runtime/conversion/json-values.js";`);
  }
  const table = group.kinds.map((kind) => {
    const rows = kind.versions.map((from) => {
      const cells = Object.entries(kind.pairs[from] ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([to, fn]) => `${key(to)}: ${fn ?? "null"}`);
      return `      ${key(from)}: { ${cells.join(", ")} },`;
    });
    return [
      `  ${JSON.stringify(`${kind.group}/${kind.kind}`)}: {`,
      `    hub: ${JSON.stringify(kind.hub)},`,
      "    pairs: {",
      ...rows,
      "    },",
      "  },",
    ].join("\n");
  });
  const content = [
    generatedHeader(group.sources),
    imports.join("\n"),
    "",
    ...functions.flatMap((f) => [f, ""]),
    "/** Conversions of each kind through its hub version; null where a hand-written function is missing. */",
    "export const conversions: Record<string, KindConversions> = {",
    ...table,
    "};",
    "",
  ].join("\n");
  return { path: `${group.groupDir}/conversions.ts`, content };
}

function tableName(dir: string): string {
  return dir.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function tableFile(groups: GroupConversions[]): GeneratedFile {
  const imports = groups.map(
    (g) => `import { conversions as ${tableName(g.groupDir)} } from "./${g.groupDir}/conversions.js";`,
  );
  const content = [
    generatedHeader(groups.flatMap((g) => g.sources)),
    `import type { ConversionTable } from "../runtime/conversion/convert.js";`,
    ...imports,
    "",
    '/** Every kind served in several versions of its group, keyed by "group/Kind". */',
    "export const conversionTable: ConversionTable = {",
    ...groups.map((g) => `  ...${tableName(g.groupDir)},`),
    "};",
    "",
  ].join("\n");
  return { path: "conversions.ts", content };
}

function missingNote(group: GroupConversions): string | undefined {
  if (group.missing.length === 0) return undefined;
  const blocked = group.kinds.flatMap((kind) =>
    Object.entries(kind.pairs).flatMap(([from, row]) =>
      Object.entries(row)
        .filter(([, fn]) => fn === null)
        .map(([to]) => `${kind.kind} ${from}→${to}`),
    ),
  );
  const functions = group.missing.map((p) => `${p.fn} (${p.mismatches.join("; ")})`);
  return (
    `${group.group || "core"}: ${blocked.join(", ")} not convertible; ` +
    `export from runtime/conversion/functions/${group.groupDir}.ts: ${functions.join(", ")}`
  );
}

export function emitConversions(set: SchemaSet, lookup: HandWrittenLookup): EmitResult {
  const groups = analyzeConversions(set, lookup);
  if (groups.length === 0) return { files: [] };
  const notes = groups.map(missingNote).filter((n): n is string => n !== undefined);
  return { files: [...groups.map(groupFile), tableFile(groups)], notes };
}

const handWrittenDir = join(dirname(fileURLToPath(import.meta.url)), "../../runtime/conversion/functions");

export const conversionsEmitter: Emitter = {
  name: "conversions",
  emit: (set) => emitConversions(set, handWrittenIn(handWrittenDir)),
};
