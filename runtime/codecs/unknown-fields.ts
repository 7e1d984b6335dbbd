// A decoded body checked against its kind's fields (generated/fields.ts) the way kube's typed decoder
// (sigs.k8s.io/json) reads it in one pass: fields the kind does not know are dropped and reported as
// `unknown field "spec.foo"`, repeated keys as `duplicate field "metadata.name"`, both in document order,
// deduplicated and capped at 100; a value of the wrong JSON type is a fatal error in encoding/json's words
// (`json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`), and
// the first fatal error wins over everything strict decoding found.
import { fieldTable } from "../../generated/fields.js";
import { goDurationError } from "../object/go-duration.js";
import { isJsonObject, type JsonObject } from "../object/json-object.js";
import { cannotBeHandled, handledAs, jsonKind } from "./decode-errors.js";
import type { FieldDefinition, FieldNode, ScalarField } from "./field-table.js";
import { duplicateFieldProblem, unknownFieldProblem } from "./field-validation.js";
import { base64ErrorOffset } from "./go-base64.js";
import { quantityError } from "./go-quantity.js";
import type { DuplicateKey, DuplicateKeys } from "./parsed-body.js";

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
  // metav1.Duration reads a JSON string first; the decoder adds the field to that type error.
  duration: "string",
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

/** A path one step further: struct fields and map keys after a dot, list items as `[i]`. */
function pathTo(parent: string, step: string | number): string {
  if (typeof step === "number") return `${parent}[${step}]`;
  return parent === "" ? step : `${parent}.${step}`;
}

interface StructFrame {
  kind: "struct";
  obj: JsonObject;
  def: FieldDefinition;
  keys: string[];
  /** The next key to look at, and how many of the object's repeated keys are reported. */
  at: number;
  repeats: readonly DuplicateKey[] | undefined;
  reported: number;
  path: string;
  /** The innermost struct when this one was entered. */
  outer: string;
  /** Whether a field's value is being walked, to be left when its frame is done. */
  inField: boolean;
}

interface MapFrame {
  kind: "map";
  obj: JsonObject;
  node: FieldNode;
  keys: string[];
  at: number;
  repeats: readonly DuplicateKey[] | undefined;
  reported: number;
  path: string;
}

interface ListFrame {
  kind: "list";
  items: readonly unknown[];
  node: FieldNode;
  at: number;
  path: string;
}

type Frame = StructFrame | MapFrame | ListFrame;

/**
 * The walk keeps its own stack: a kind whose definitions nest (a CRD's JSONSchemaProps) may be nested as
 * deep as the JSON decoder allows, thousands of levels.
 */
class FieldWalker {
  readonly unknown: string[] = [];
  readonly problems: string[] = [];
  fatal: string | undefined;
  private readonly reported = new Set<string>();
  /** encoding/json's error context: the struct field names from the top, and the innermost struct. */
  private readonly goFields: string[] = [];
  private goStruct = "";
  private readonly stack: Frame[] = [];

  constructor(private readonly repeats: DuplicateKeys | undefined) {}

  private strict(problem: string): void {
    if (this.problems.length >= maxProblems || this.reported.has(problem)) return;
    this.reported.add(problem);
    this.problems.push(problem);
  }

  private typeError(what: string, node: FieldNode): void {
    if (this.fatal !== undefined) return;
    const into =
      this.goFields.length === 0 ? "Go value" : `Go struct field ${this.goStruct}.${this.goFields.join(".")}`;
    this.fatal = `json: cannot unmarshal ${what} into ${into} of type ${goType(node)}`;
  }

  /**
   * Reports the keys repeated before the `upTo`-th distinct key of an object at `path` (only the fields a
   * struct knows: an unknown one is reported once, as unknown); returns how many of `list` are done.
   */
  private repeated(
    list: readonly DuplicateKey[],
    from: number,
    upTo: number,
    path: string,
    def?: FieldDefinition,
  ): number {
    let i = from;
    for (; i < list.length && (list[i] as DuplicateKey).after <= upTo; i++) {
      const key = (list[i] as DuplicateKey).key;
      if (def === undefined || Object.hasOwn(def.fields, key)) this.strict(duplicateFieldProblem(pathTo(path, key)));
    }
    return i;
  }

  /** Walks `obj` as the struct `def`. */
  walk(obj: JsonObject, def: FieldDefinition): void {
    this.enterStruct(obj, def, "");
    for (let top = this.stack.at(-1); top !== undefined; top = this.stack.at(-1)) {
      if (!this.advance(top)) this.stack.pop();
    }
  }

  /** Checks a value against its node: scalars at once, containers by pushing a frame (then true). */
  private value(v: unknown, node: FieldNode, path: string): boolean {
    if (v === null) return false;
    if (typeof node === "number") {
      if (isJsonObject(v)) return this.enterStruct(v, definition(node), path);
      this.typeError(jsonKind(v), node);
    } else if (typeof node === "string") this.scalar(v, node);
    else if ("list" in node) {
      if (!Array.isArray(v)) this.typeError(jsonKind(v), node);
      else if (v.length > 0) {
        this.stack.push({ kind: "list", items: v, node: node.list, at: 0, path });
        return true;
      }
    } else if (isJsonObject(v)) {
      const keys = Object.keys(v);
      const repeats = this.repeats?.get(v);
      this.stack.push({ kind: "map", obj: v, node: node.map, keys, at: 0, repeats, reported: 0, path });
      return true;
    } else this.typeError(jsonKind(v), node);
    return false;
  }

  private enterStruct(obj: JsonObject, def: FieldDefinition, path: string): boolean {
    const repeats = this.repeats?.get(obj);
    const keys = Object.keys(obj);
    const outer = this.goStruct;
    this.stack.push({ kind: "struct", obj, def, keys, at: 0, repeats, reported: 0, path, outer, inField: false });
    return true;
  }

  /** Moves the top frame on to its next entry with a value to walk; false once it has none left. */
  private advance(top: Frame): boolean {
    switch (top.kind) {
      case "list":
        while (top.at < top.items.length) {
          const i = top.at++;
          if (this.value(top.items[i], top.node, pathTo(top.path, i))) return true;
        }
        return false;
      case "map":
        while (top.at < top.keys.length) {
          const i = top.at++;
          const key = top.keys[i] as string;
          if (top.repeats !== undefined) top.reported = this.repeated(top.repeats, top.reported, i, top.path);
          // encoding/json decodes null into a map's string value as "" (labels `{a: null}` are stored `a: ""`).
          if (top.obj[key] === null && top.node === "string") top.obj[key] = "";
          if (this.value(top.obj[key], top.node, pathTo(top.path, key))) return true;
        }
        if (top.repeats !== undefined) this.repeated(top.repeats, top.reported, top.keys.length, top.path);
        return false;
      case "struct":
        return this.advanceStruct(top);
    }
  }

  private advanceStruct(top: StructFrame): boolean {
    if (top.inField) this.leaveField(top);
    while (top.at < top.keys.length) {
      const i = top.at++;
      const key = top.keys[i] as string;
      if (top.repeats !== undefined) {
        top.reported = this.repeated(top.repeats, top.reported, i, top.path, top.def);
      }
      const node = Object.hasOwn(top.def.fields, key) ? top.def.fields[key] : undefined;
      if (node === undefined) {
        const path = pathTo(top.path, key);
        this.unknown.push(path);
        this.strict(unknownFieldProblem(path));
        delete top.obj[key];
        continue;
      }
      this.goFields.push(key);
      this.goStruct = top.def.name;
      if (this.value(top.obj[key], node, pathTo(top.path, key))) {
        top.inField = true;
        return true;
      }
      this.leaveField(top);
    }
    if (top.repeats !== undefined) this.repeated(top.repeats, top.reported, top.keys.length, top.path, top.def);
    return false;
  }

  private leaveField(top: StructFrame): void {
    this.goFields.pop();
    this.goStruct = top.outer;
    top.inField = false;
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
      case "duration":
        this.duration(v);
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

  /** metav1.Duration's UnmarshalJSON: a JSON string, then time.ParseDuration, whose error comes back bare. */
  private duration(v: unknown): void {
    if (typeof v !== "string") {
      this.typeError(jsonKind(v), "duration");
      return;
    }
    const error = goDurationError(v);
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
  walker.walk(obj, definition(n));
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
