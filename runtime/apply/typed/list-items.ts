// How a list's items are named in field paths: by their key fields in a list map (an omitted key takes the
// schema's default), by their value in a set, by position in an atomic list. Indexing a list finds each
// item's element and which elements occur more than once; kube accepts duplicates in stored objects and
// owns such items only as a whole.
import { isJsonObject } from "../../object/json-object.js";
import {
  indexElement,
  type KeyField,
  keyElement,
  type PathElement,
  serializePathElement,
  valueElement,
} from "../fieldpath/path-element.js";
import { keyDefault, type ManagedSchema, type ResolvedType } from "./managed-schema.js";

type ListType = Extract<ResolvedType, { kind: "list" }>;

/** An item's path element, or the reason it has none (structured-merge-diff's wording). */
export function listItemElement(
  schema: ManagedSchema,
  list: ListType,
  index: number,
  item: unknown,
): PathElement | string {
  if (list.atomic) return indexElement(index);
  if (list.keys.length === 0) {
    if (isJsonObject(item)) return "associative list without keys has an element that's a map type";
    if (Array.isArray(item)) return "not supported: associative list with lists as elements";
    if (item === null) return "associative list without keys has an element that's an explicit null";
    return valueElement(item);
  }
  if (item === null) return "associative list with keys may not have a null element";
  if (!isJsonObject(item)) return "associative list with keys may not have non-map elements";
  const fields: KeyField[] = [];
  for (const name of list.keys) {
    if (Object.hasOwn(item, name)) {
      fields.push({ name, value: item[name] });
      continue;
    }
    const fallback = keyDefault(schema, list.element, name);
    if (fallback === undefined) {
      return `associative list with keys has an element that omits key field "${name}" (and doesn't have default value)`;
    }
    fields.push({ name, value: fallback });
  }
  return keyElement(fields);
}

export interface IndexedItem {
  readonly element: PathElement;
  /** Every item with this element, in list order; more than one for a duplicated key. */
  readonly items: readonly unknown[];
}

export interface IndexedList {
  /** One entry per distinct element, in the order of first occurrence. */
  readonly order: readonly IndexedItem[];
  readonly byElement: ReadonlyMap<string, IndexedItem>;
  /** Items without an element, with the reason, by index. */
  readonly errors: readonly { index: number; reason: string }[];
}

export function indexList(schema: ManagedSchema, list: ListType, items: readonly unknown[]): IndexedList {
  const order: { element: PathElement; items: unknown[] }[] = [];
  const byElement = new Map<string, { element: PathElement; items: unknown[] }>();
  const errors: { index: number; reason: string }[] = [];
  items.forEach((item, index) => {
    const element = listItemElement(schema, list, index, item);
    if (typeof element === "string") {
      errors.push({ index, reason: element });
      return;
    }
    const id = serializePathElement(element);
    const known = byElement.get(id);
    if (known !== undefined) {
      known.items.push(item);
      return;
    }
    const entry = { element, items: [item] };
    byElement.set(id, entry);
    order.push(entry);
  });
  return { order, byElement, errors };
}
