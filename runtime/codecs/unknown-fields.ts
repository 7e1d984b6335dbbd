// A decoded body checked against its kind's fields (generated/fields.ts) the way kube's typed decoder
// (sigs.k8s.io/json) reads it in one pass: fields the kind does not know are dropped and reported as
// `unknown field "spec.foo"`, repeated keys as `duplicate field "metadata.name"`, both in document order,
// deduplicated and capped at 100; a value of the wrong JSON type is a fatal error in encoding/json's words
// (`json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`), and
// the first fatal error wins over everything strict decoding found.
import { fieldTable } from "../../generated/fields.js";
import { cannotBeHandled, handledAs, jsonKind } from "./decode-errors.js";
import type { FieldDefinition, FieldNode, ScalarField } from "./field-table.js";
import { duplicateFieldProblem, unknownFieldProblem } from "./field-validation.js";
import { base64ErrorOffset } from "./go-base64.js";
import { quantityError } from "./go-quantity.js";
import { isJsonObject, type JsonObject } from "./json-object.js";
import { type DuplicateKey, type DuplicateKeys, fieldPath } from "./parsed-body.js";

export interface FieldCheck {
  /** Paths of the fields removed. */
  unknown: string[];
  /** Unknown and duplicate fields worded and ordered as kube's strict decoding errors. */
  problems: string[];
  /** The first value of the wrong type, as kube's decoder reports it; strict problems then do not count. */
  fatal?: string;
}

/** sigs.k8s.io/json stops collecting strict errors here. */
const maxProblems = 100;

const int32Range = 2 ** 31;
const int64Range = 2 ** 63;

const goScalarTypes: Record<ScalarField, string> = {
  string: "string",
  bool: "bool",
  int32: "int32",
  int64: "int64",
  float64: "float64",
  float32: "float32",
  bytes: "[]uint8",
  "int-or-string": "intstr.IntOrString",
  quantity: "resource.Quantity",
  any: "interface {}",
};

/** The table entry of a kind's top-level definition, when the generated table has one. */
export function kindFields(group: string, version: string, kind: string): number | undefined {
  return fieldTable.kinds[group === "" ? `${version}/${kind}` : `${group}/${version}/${kind}`];
}

function definition(n: number): FieldDefinition {
  const def = fieldTable.definitions[n];
  if (def === undefined) throw new Error(`generated/fields.ts has no definition ${n}`);
  return def;
}

function goType(node: FieldNode): string {
  if (typeof node === "number") {
    const def = definition(node);
    return `${def.pkg}.${def.name}`;
  }
  if (typeof node === "string") return goScalarTypes[node];
  return "list" in node ? `[]${goType(node.list)}` : `map[string]${goType(node.map)}`;
}

class FieldWalker {
  readonly unknown: string[] = [];
  readonly problems: string[] = [];
  fatal: string | undefined;
  private readonly reported = new Set<string>();
  /** Keys and list indexes down to the current value; paths are only spelled out for a report. */
  private readonly path: (string | number)[] = [];
  /** encoding/json's error context: the struct field names from the top, and the innermost struct. */
  private readonly goFields: string[] = [];
  private goStruct = "";

  constructor(private readonly repeats: DuplicateKeys | undefined) {}

  private strict(problem: string): void {
    if (this.problems.length >= maxProblems || this.reported.has(problem)) return;
    this.reported.add(problem);
    this.problems.push(problem);
  }

  private pathTo(key: string): string {
    this.path.push(key);
    const path = fieldPath(this.path);
    this.path.pop();
    return path;
  }

  private typeError(what: string, node: FieldNode): void {
    if (this.fatal !== undefined) return;
    const into =
      this.goFields.length === 0 ? "Go value" : `Go struct field ${this.goStruct}.${this.goFields.join(".")}`;
    this.fatal = `json: cannot unmarshal ${what} into ${into} of type ${goType(node)}`;
  }

  /**
   * Reports the keys repeated before the `upTo`-th distinct key of an object (only the fields a struct
   * knows: an unknown one is reported once, as unknown); returns how many of `list` are done.
   */
  private repeated(list: readonly DuplicateKey[], from: number, upTo: number, def?: FieldDefinition): number {
    let i = from;
    for (; i < list.length && (list[i] as DuplicateKey).after <= upTo; i++) {
      const key = (list[i] as DuplicateKey).key;
      if (def === undefined || Object.hasOwn(def.fields, key)) this.strict(duplicateFieldProblem(this.pathTo(key)));
    }
    return i;
  }

  value(v: unknown, node: FieldNode): void {
    if (v === null) return;
    if (typeof node === "number") {
      if (isJsonObject(v)) this.struct(v, definition(node));
      else this.typeError(jsonKind(v), node);
    } else if (typeof node === "string") this.scalar(v, node);
    else if ("list" in node) {
      if (Array.isArray(v)) this.list(v, node.list);
      else this.typeError(jsonKind(v), node);
    } else if (isJsonObject(v)) this.map(v, node.map);
    else this.typeError(jsonKind(v), node);
  }

  struct(obj: JsonObject, def: FieldDefinition): void {
    const repeats = this.repeats?.get(obj);
    const keys = Object.keys(obj);
    let done = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (repeats !== undefined) done = this.repeated(repeats, done, i, def);
      const node = Object.hasOwn(def.fields, key) ? def.fields[key] : undefined;
      if (node === undefined) {
        const path = this.pathTo(key);
        this.unknown.push(path);
        this.strict(unknownFieldProblem(path));
        delete obj[key];
        continue;
      }
      const outer = this.goStruct;
      this.path.push(key);
      this.goFields.push(key);
      this.goStruct = def.name;
      this.value(obj[key], node);
      this.path.pop();
      this.goFields.pop();
      this.goStruct = outer;
    }
    if (repeats !== undefined) this.repeated(repeats, done, keys.length, def);
  }

  private list(items: readonly unknown[], node: FieldNode): void {
    for (let i = 0; i < items.length; i++) {
      this.path.push(i);
      this.value(items[i], node);
      this.path.pop();
    }
  }

  private map(obj: JsonObject, node: FieldNode): void {
    const repeats = this.repeats?.get(obj);
    const keys = Object.keys(obj);
    let done = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (repeats !== undefined) done = this.repeated(repeats, done, i);
      this.path.push(key);
      this.value(obj[key], node);
      this.path.pop();
    }
    if (repeats !== undefined) this.repeated(repeats, done, keys.length);
  }

  private scalar(v: unknown, node: ScalarField): void {
    switch (node) {
      case "string":
      case "bool":
        if (jsonKind(v) !== node) this.typeError(jsonKind(v), node);
        return;
      case "int32":
      case "int64":
        this.integer(v, node);
        return;
      case "float32":
      case "float64":
        if (typeof v !== "number") this.typeError(jsonKind(v), node);
        return;
      case "bytes":
        this.bytes(v);
        return;
      case "int-or-string":
        // IntOrString decodes anything but a JSON string as an int32.
        if (typeof v !== "string") this.integer(v, "int32");
        return;
      case "quantity":
        this.quantity(v);
        return;
      default:
        return;
    }
  }

  private integer(v: unknown, node: "int32" | "int64"): void {
    if (typeof v !== "number") {
      this.typeError(jsonKind(v), node);
      return;
    }
    const range = node === "int32" ? int32Range : int64Range;
    if (!Number.isInteger(v) || v < -range || v >= range) this.typeError(`number ${v}`, node);
  }

  private quantity(v: unknown): void {
    const error = quantityError(v);
    if (error !== undefined) this.fatal ??= error;
  }

  private bytes(v: unknown): void {
    if (typeof v !== "string") {
      this.typeError(jsonKind(v), "bytes");
      return;
    }
    const offset = base64ErrorOffset(v);
    if (offset !== undefined) this.fatal ??= `illegal base64 data at input byte ${offset}`;
  }
}

/**
 * Walks `obj` as the top-level definition `n` of generated/fields.ts: removes the fields it does not know
 * (in place) and reports what kube's strict decoding and its type checks would. `repeats` are the
 * duplicate keys the parser found, so that they are reported where kube reports them.
 */
export function checkFields(obj: JsonObject, n: number, repeats?: DuplicateKeys): FieldCheck {
  const walker = new FieldWalker(repeats);
  walker.struct(obj, definition(n));
  const check: FieldCheck = { unknown: walker.unknown, problems: walker.problems };
  if (walker.fatal !== undefined) check.fatal = walker.fatal;
  return check;
}

/**
 * Removes, in place, every field the kind's schema does not know and returns their paths as kube words
 * them (`spec.template.spec.containers[0].foo`). A value of the wrong JSON type is refused first, with
 * kube's 400 (`Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal …`).
 * A kind the table does not know keeps all its fields.
 */
export function pruneUnknownFields(value: JsonObject, group: string, version: string, kind: string): string[] {
  const n = kindFields(group, version, kind);
  if (n === undefined) return [];
  const check = checkFields(value, n);
  if (check.fatal !== undefined) throw cannotBeHandled(handledAs(value, { group, version, kind }), check.fatal);
  return check.unknown;
}
