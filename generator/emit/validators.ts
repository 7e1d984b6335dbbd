// Structural validators: `generated/<fileId>/validators.ts` holds one `validate<Definition>` per
// definition, appending FieldErrors for what the schema states (types, required, enum, formats, bounds,
// lengths, patterns, item counts, list-set and list-map uniqueness). Unknown fields are left to later
// stages. `generated/validation.ts` maps every kind to its validator and defaulter so the runtime looks
// them up by apiVersion and kind; a kind whose schema carries CEL rules (x-kubernetes-validations) also
// gets the structural schema the runtime compiles them from. Rules are compiled here too, so a rule that
// does not compile (or costs too much) stops the generator.
import { posix } from "node:path";
import type { SchemaNode } from "../schema/model.js";
import type { KindInfo, SchemaSet } from "../schema/schema-set.js";
import { celRuleProblems } from "../validate/cel-rules.js";
import { type EmitResult, type Emitter, type GeneratedFile, generatedHeader } from "./emitter.js";
import { StructuralSchemas } from "./kind-structural-schema.js";
import { tsLiteral as tableLiteral } from "./ts-literal.js";

/** An identifier for a schema file's module: "rbac.authorization.k8s.io/v1" → rbacAuthorizationK8sIoV1. */
export function moduleAlias(fileId: string): string {
  const words = fileId.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("");
}

/** Import specifier from generated/<fromFileId>/x.ts to a path relative to the repository root. */
export function importFrom(fromFileId: string, target: string): string {
  const rel = posix.relative(posix.join("generated", fromFileId), target);
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** `obj.name`, or a guarded lookup for names JavaScript objects inherit or that are not identifiers. */
export function propertyAccess(objVar: string, name: string): string {
  if (name in Object.prototype)
    return `(Object.hasOwn(${objVar}, ${JSON.stringify(name)}) ? ${objVar}[${JSON.stringify(name)}] : undefined)`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `${objVar}.${name}` : `${objVar}[${JSON.stringify(name)}]`;
}

/** A value as TypeScript source: `["a", "b"]`, `{ name: "" }`. */
export function tsLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(tsLiteral).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const props = entries.map(
      ([k, v]) => `${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k)}: ${tsLiteral(v)}`,
    );
    return `{ ${props.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** A check call: `fn(value, path, errs, ...extra)`. */
interface Check {
  fn: string;
  extra: string[];
}

class FileEmitter {
  readonly imports = new Set<string>();
  usesChild = false;

  constructor(
    private readonly set: SchemaSet,
    private readonly fileId: string,
  ) {}

  private refFn(ref: string): string {
    const id = this.set.resolveRef(this.fileId, ref);
    if (id.fileId === this.fileId) return `validate${id.name}`;
    this.imports.add(id.fileId);
    return `${moduleAlias(id.fileId)}.validate${id.name}`;
  }

  private resolve(node: SchemaNode): SchemaNode | undefined {
    if (node.$ref === undefined) return node;
    return this.set.tryDefinition(this.set.resolveRef(this.fileId, node.$ref));
  }

  /** The check for a value of this schema, or undefined when any value passes. */
  check(node: SchemaNode, indent: string): Check | undefined {
    if (node.$ref !== undefined) return { fn: this.refFn(node.$ref), extra: [] };
    const branches = node.oneOf ?? node.anyOf;
    if (branches !== undefined) {
      const types = branches.map((b) => b.type);
      if (types.every((t) => t !== undefined && t !== "object" && t !== "array")) {
        return withRules("c.oneOfTypes", [tsLiteral(types)], scalarRules(node));
      }
      return undefined;
    }
    switch (node.type) {
      case "string":
      case "integer":
      case "number":
        return withRules(`c.${node.type}`, [], scalarRules(node));
      case "boolean":
        return withRules("c.boolean", [], node.enum === undefined ? [] : [`enum: ${tsLiteral(node.enum)}`]);
      case "array":
        return this.listCheck(node, indent);
      default:
        if (node.properties !== undefined) return { fn: this.inlineObject(node, indent), extra: [] };
        if (typeof node.additionalProperties === "object")
          return this.mapCheck(node, node.additionalProperties, indent);
        return node.type === "object" ? { fn: "c.object", extra: [] } : undefined;
    }
  }

  private listCheck(node: SchemaNode, indent: string): Check {
    const item = node.items === undefined ? undefined : this.check(node.items, indent);
    const rules: string[] = [];
    if (node.minItems !== undefined) rules.push(`minItems: ${node.minItems}`);
    if (node.maxItems !== undefined) rules.push(`maxItems: ${node.maxItems}`);
    const listType = node["x-kubernetes-list-type"];
    if (listType === "set") rules.push(`listType: "set"`);
    const keys = node["x-kubernetes-list-map-keys"];
    if (listType === "map" && keys !== undefined && keys.length > 0) {
      rules.push(`listType: "map"`, `mapKeys: ${tsLiteral(keys)}`);
      const itemDef = node.items === undefined ? undefined : this.resolve(node.items);
      const defaults: Record<string, unknown> = {};
      for (const k of keys) {
        const d = itemDef?.properties?.[k]?.default;
        if (d !== undefined) defaults[k] = d;
      }
      if (Object.keys(defaults).length > 0) rules.push(`keyDefaults: ${tsLiteral(defaults)}`);
    }
    return withRules("c.list", [itemArg(item)], rules);
  }

  private mapCheck(node: SchemaNode, values: SchemaNode, indent: string): Check {
    const rules: string[] = [];
    if (node.minProperties !== undefined) rules.push(`minProperties: ${node.minProperties}`);
    if (node.maxProperties !== undefined) rules.push(`maxProperties: ${node.maxProperties}`);
    return withRules("c.map", [itemArg(this.check(values, indent))], rules);
  }

  /** An arrow function checking an object schema written inline rather than by `$ref`. */
  private inlineObject(node: SchemaNode, indent: string): string {
    const inner = `${indent}  `;
    const body = this.objectBody(node, "v", "o", "p", "e", inner);
    return `((v: unknown, p: string, e: FieldError[]): void => {\n${body.join("\n")}\n${indent}})`;
  }

  /** Statements checking an object and its declared properties. */
  objectBody(
    node: SchemaNode,
    valueVar: string,
    objVar: string,
    pathVar: string,
    errsVar: string,
    indent: string,
  ): string[] {
    const lines = [
      `${indent}const ${objVar} = c.object(${valueVar}, ${pathVar}, ${errsVar});`,
      `${indent}if (${objVar} === undefined) return;`,
    ];
    if (node.required !== undefined && node.required.length > 0) {
      lines.push(`${indent}c.required(${objVar}, ${pathVar}, ${errsVar}, ${tsLiteral(node.required)});`);
    }
    for (const [name, prop] of Object.entries(node.properties ?? {})) {
      const check = this.check(prop, indent);
      if (check === undefined) continue;
      this.usesChild = true;
      const args = [
        propertyAccess(objVar, name),
        `child(${pathVar}, ${JSON.stringify(name)})`,
        errsVar,
        ...check.extra,
      ];
      lines.push(`${indent}${check.fn}(${args.join(", ")});`);
    }
    return lines;
  }

  definition(name: string, node: SchemaNode): string {
    const head = `export function validate${name}(value: unknown, path: string, errs: FieldError[]): void {`;
    const isObject = node.$ref === undefined && node.properties !== undefined;
    if (isObject) return [head, ...this.objectBody(node, "value", "obj", "path", "errs", "  "), "}"].join("\n");
    const check = this.check(node, "  ");
    if (check === undefined) return `${head}\n  // Any JSON value is valid here.\n}`;
    return [head, `  ${check.fn}(${["value", "path", "errs", ...check.extra].join(", ")});`, "}"].join("\n");
  }
}

function withRules(fn: string, extra: string[], rules: string[]): Check {
  return { fn, extra: rules.length === 0 ? extra : [...extra, `{ ${rules.join(", ")} }`] };
}

function itemArg(check: Check | undefined): string {
  if (check === undefined) return "undefined";
  if (check.extra.length === 0) return check.fn;
  return `(v, p, e) => ${check.fn}(v, p, e, ${check.extra.join(", ")})`;
}

/** Formats the runtime checks: the rest (double, int-or-string, …) constrain nothing beyond the type. */
const checkedFormats: Record<string, readonly string[]> = {
  string: ["date-time", "byte"],
  integer: ["int32", "int64"],
};

function scalarRules(node: SchemaNode): string[] {
  const rules: string[] = [];
  if (node.enum !== undefined) rules.push(`enum: ${tsLiteral(node.enum)}`);
  const formats = node.type === undefined ? [] : (checkedFormats[node.type] ?? []);
  if (node.format !== undefined && formats.includes(node.format)) rules.push(`format: ${JSON.stringify(node.format)}`);
  const numeric = ["minLength", "maxLength", "minimum", "maximum"] as const;
  for (const k of numeric) if (node[k] !== undefined) rules.push(`${k}: ${node[k]}`);
  if (node.exclusiveMinimum === true) rules.push("exclusiveMinimum: true");
  if (node.exclusiveMaximum === true) rules.push("exclusiveMaximum: true");
  if (node.pattern !== undefined) rules.push(`pattern: ${JSON.stringify(node.pattern)}`);
  return rules;
}

function emitFile(set: SchemaSet, fileId: string): GeneratedFile {
  const loaded = set.file(fileId);
  const emitter = new FileEmitter(set, fileId);
  const functions = Object.keys(loaded.file.definitions)
    .sort()
    .map((name) => emitter.definition(name, loaded.file.definitions[name] as SchemaNode));
  const imports = [
    `import type { FieldError } from "${importFrom(fileId, "runtime/errors/field-error.js")}";`,
    ...(emitter.usesChild ? [`import { child } from "${importFrom(fileId, "runtime/errors/field-path.js")}";`] : []),
    `import * as c from "${importFrom(fileId, "runtime/validation/schema-checks.js")}";`,
    ...[...emitter.imports]
      .sort()
      .map((id) => `import * as ${moduleAlias(id)} from "${importFrom(fileId, `generated/${id}/validators.js`)}";`),
  ];
  const content = `${generatedHeader([loaded.path])}${imports.join("\n")}\n\n${functions.join("\n\n")}\n`;
  return { path: `${fileId}/validators.ts`, content };
}

/** apiVersion and kind: "apps/v1/Deployment"; the core group's apiVersion is just its version. */
export function validationKey(group: string, version: string, kind: string): string {
  return group === "" ? `${version}/${kind}` : `${group}/${version}/${kind}`;
}

/** Kinds with a definition, in the order of their validation keys. */
function validatedKinds(set: SchemaSet): KindInfo[] {
  return set
    .kinds()
    .filter((k) => set.tryDefinition({ fileId: k.file.id, name: k.entry.kind }) !== undefined)
    .sort((a, b) => {
      const ka = validationKey(a.gvk.group, a.gvk.version, a.gvk.kind);
      const kb = validationKey(b.gvk.group, b.gvk.version, b.gvk.kind);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
}

function emitTable(set: SchemaSet): GeneratedFile {
  const kinds = validatedKinds(set);
  const schemas = new StructuralSchemas(set);
  const fileIds = [...new Set(kinds.map((k) => k.file.id))].sort();
  const sources = [...new Set(kinds.map((k) => k.file.path))].sort();
  const imports = [
    `import type { StructuralSchema } from "../runtime/cel/rules/structural-schema.js";`,
    `import type { FieldError } from "../runtime/errors/field-error.js";`,
    `import { run } from "../runtime/validation/schema-checks.js";`,
    ...fileIds.flatMap((id) => [
      `import * as ${moduleAlias(id)}Defaulters from "./${id}/defaulters.js";`,
      `import * as ${moduleAlias(id)} from "./${id}/validators.js";`,
    ]),
  ];
  const rows = kinds.map((k) => {
    const alias = moduleAlias(k.file.id);
    const key = JSON.stringify(validationKey(k.gvk.group, k.gvk.version, k.gvk.kind));
    const celSchema = schemas.withRules(k);
    return [
      `  ${key}: {`,
      `    validate: (obj) => run(${alias}.validate${k.entry.kind}, obj),`,
      `    default: ${alias}Defaulters.default${k.entry.kind},`,
      ...(celSchema !== undefined ? [`    celSchema: ${tableLiteral(celSchema, "    ")},`] : []),
      "  },",
    ].join("\n");
  });
  const content = [
    `${generatedHeader(sources)}${imports.join("\n")}`,
    "",
    "export interface KindValidation {",
    "  /** Structural errors, paths starting at the object's top-level fields. */",
    "  validate(obj: unknown): FieldError[];",
    "  /** Applies schema defaults in place. */",
    "  default(obj: unknown): void;",
    "  /** The schema whose CEL rules (x-kubernetes-validations) apply, for kinds that have any. */",
    "  celSchema?: StructuralSchema;",
    "}",
    "",
    '/** The key of a kind in `validation`: "apps/v1/Deployment", "v1/Pod" for the core group. */',
    "export function validationKey(group: string, version: string, kind: string): string {",
    `  return group === "" ? \`\${version}/\${kind}\` : \`\${group}/\${version}/\${kind}\`;`,
    "}",
    "",
    "export const validation: Readonly<Record<string, KindValidation>> = {",
    ...rows,
    "};",
    "",
  ].join("\n");
  return { path: "validation.ts", content };
}

export const validatorsEmitter: Emitter = {
  name: "validators",
  emit(set: SchemaSet): EmitResult {
    const problems = celRuleProblems(set);
    if (problems.length > 0) throw new Error(`CEL rules that kube-apiserver would refuse:\n${problems.join("\n")}`);
    const files = set.files.map((f) => emitFile(set, f.id));
    files.push(emitTable(set));
    return { files };
  },
};
