// The field set of a value (structured-merge-diff's TypedValue.ToFieldSet): every scalar, every atomic list,
// map or struct as a whole, every list item and map entry; struct fields that hold more are not members
// themselves, only what is under them. With a `problems` collector the value is checked as kube checks an
// applied configuration (undeclared fields, wrong JSON types, list items without a key, duplicates);
// without one, objects already stored are read leniently (an undeclared field is deduced).

import { isJsonObject } from "../../object/json-object.js";
import { FieldSet } from "../fieldpath/field-set.js";
import { fieldElement, type Path } from "../fieldpath/path-element.js";
import { elementText } from "../fieldpath/path-string.js";
import { indexList } from "./list-items.js";
import {
  declaresField,
  fieldType,
  type ManagedSchema,
  type ResolvedType,
  resolveType,
  type SchemaType,
} from "./managed-schema.js";
import type { TypedProblem } from "./typed-problem.js";

const scalarKinds: Record<string, readonly string[]> = {
  string: ["string"],
  bytes: ["string"],
  bool: ["boolean"],
  int32: ["number"],
  int64: ["number"],
  float32: ["number"],
  float64: ["number"],
  "int-or-string": ["number", "string"],
  quantity: ["number", "string"],
};

function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "list";
  if (isJsonObject(value)) return "map";
  return typeof value;
}

/** The type of an entry of a struct or map; undefined for a field the struct neither declares nor keeps. */
export function entryType(
  schema: ManagedSchema,
  container: Extract<ResolvedType, { kind: "struct" | "map" }>,
  name: string,
): SchemaType | undefined {
  return container.kind === "map" ? container.element : fieldType(schema, container, name);
}

/** The problem with a value of the wrong JSON type for its schema type, if any; null fits every type. */
function typeMismatch(type: ResolvedType, value: unknown): string | undefined {
  if (value === null) return undefined;
  if (type.kind === "scalar") {
    const allowed = type.scalar === undefined ? undefined : scalarKinds[type.scalar];
    if (allowed === undefined || allowed.includes(typeof value)) return undefined;
    if (allowed.includes("number")) return `expected numeric (int or float), got ${jsonKind(value)}`;
    if (allowed.includes("boolean")) return `expected boolean, got ${jsonKind(value)}`;
    return `expected string, got ${jsonKind(value)}`;
  }
  if (type.kind === "list") return Array.isArray(value) ? undefined : `expected list, got ${jsonKind(value)}`;
  return isJsonObject(value) ? undefined : `expected map, got ${jsonKind(value)}`;
}

class FieldSetWalker {
  readonly set = new FieldSet();

  constructor(
    private readonly schema: ManagedSchema,
    private readonly problems: TypedProblem[] | undefined,
  ) {}

  private problem(path: Path, message: string): void {
    this.problems?.push({ path, message });
  }

  walk(type: SchemaType, value: unknown, path: Path): void {
    const resolved = resolveType(type, value);
    const mismatch = typeMismatch(resolved, value);
    if (mismatch !== undefined) {
      this.problem(path, mismatch);
      this.set.insert(path);
      return;
    }
    if (resolved.kind === "scalar" || resolved.atomic) {
      this.set.insert(path);
      return;
    }
    if (resolved.kind === "list") {
      if (Array.isArray(value)) this.walkList(resolved, value, path);
      return;
    }
    if (isJsonObject(value)) this.walkEntries(resolved, value, path);
  }

  private walkList(list: Extract<ResolvedType, { kind: "list" }>, items: readonly unknown[], path: Path): void {
    const indexed = indexList(this.schema, list, items);
    for (const e of indexed.errors) this.problem(path, `element ${e.index}: ${e.reason}`);
    for (const entry of indexed.order) {
      const itemPath = [...path, entry.element];
      if (entry.items.length > 1) {
        this.problem(path, `duplicate entries for key ${elementText(entry.element)}`);
      } else {
        this.walk(list.element, entry.items[0], itemPath);
      }
      this.set.insert(itemPath);
    }
  }

  private walkEntries(
    container: Extract<ResolvedType, { kind: "struct" | "map" }>,
    value: Record<string, unknown>,
    path: Path,
  ): void {
    for (const [name, child] of Object.entries(value)) {
      const childPath = [...path, fieldElement(name)];
      const type = entryType(this.schema, container, name);
      if (type === undefined && this.problems !== undefined) {
        this.problem(childPath, "field not declared in schema");
        continue;
      }
      this.walk(type ?? { kind: "deduced" }, child, childPath);
      // Map entries and undeclared fields are members themselves, as in a map; declared fields are not.
      if (container.kind === "map" || !declaresField(this.schema, container, name)) this.set.insert(childPath);
    }
  }
}

export function fieldSetOf(
  schema: ManagedSchema,
  type: SchemaType,
  value: unknown,
  problems?: TypedProblem[],
): FieldSet {
  const walker = new FieldSetWalker(schema, problems);
  walker.walk(type, value, []);
  return walker.set;
}
