// FieldsV1, the encoding of a field set in a managedFields entry: a JSON object whose keys are path elements
// (`f:`, `k:`, `v:`, `i:`) and whose values are the sets below them, `{}` for a leaf, with `.` marking a
// node that is itself owned besides having owned children. Keys come in path element order with `.` first,
// as structured-merge-diff writes them, so the bytes match kube-apiserver's.
import { goJson } from "../../errors/go-format.js";
import { childElement, FieldSet, type FieldSetChild, mergeWalk, sameElement } from "./field-set.js";
import { comparePathElements, type PathElement, parsePathElement, serializePathElement } from "./path-element.js";

export type FieldsV1 = Record<string, unknown>;

function entries(set: FieldSet, includeSelf: boolean): [string, FieldsV1][] {
  const out: [string, FieldsV1][] = [];
  if (includeSelf && (set.members.length > 0 || set.children.length > 0)) out.push([".", {}]);
  mergeWalk(set.members, set.children, sameElement, childElement, {
    onLeft: (pe) => out.push([serializePathElement(pe), {}]),
    onRight: (c) => out.push([serializePathElement(c.element), toObject(c.set, false)]),
    onBoth: (_, c) => out.push([serializePathElement(c.element), toObject(c.set, true)]),
  });
  return out;
}

function toObject(set: FieldSet, includeSelf: boolean): FieldsV1 {
  return Object.fromEntries(entries(set, includeSelf));
}

/** The fieldsV1 value of a managedFields entry, keys in the order kube writes them. */
export function fieldsV1Of(set: FieldSet): FieldsV1 {
  return toObject(set, false);
}

function toText(set: FieldSet, includeSelf: boolean): string {
  const parts: string[] = [];
  if (includeSelf && (set.members.length > 0 || set.children.length > 0)) parts.push('".":{}');
  mergeWalk(set.members, set.children, sameElement, childElement, {
    onLeft: (pe) => parts.push(`${goJson(serializePathElement(pe))}:{}`),
    onRight: (c) => parts.push(`${goJson(serializePathElement(c.element))}:${toText(c.set, false)}`),
    onBoth: (_, c) => parts.push(`${goJson(serializePathElement(c.element))}:${toText(c.set, true)}`),
  });
  return `{${parts.join(",")}}`;
}

/** The raw FieldsV1 bytes (as protobuf carries them), exactly as structured-merge-diff's Set.ToJSON. */
export function encodeFieldsV1(set: FieldSet): string {
  return toText(set, false);
}

interface ReadNode {
  children: FieldSet | undefined;
  isMember: boolean;
}

function readNode(value: unknown, at: string): ReadNode {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${at}: expected a JSON object`);
  }
  let isMember = false;
  const members: PathElement[] = [];
  const children: FieldSetChild[] = [];
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === ".") {
      isMember = true;
      continue;
    }
    const pe = parsePathElement(key);
    if (pe === undefined) continue;
    const node = readNode(inner, key);
    if (node.isMember) members.push(pe);
    if (node.children !== undefined) children.push({ element: pe, set: node.children });
  }
  if (members.length === 0 && children.length === 0) return { children: undefined, isMember: true };
  members.sort(comparePathElements);
  children.sort((a, b) => comparePathElements(a.element, b.element));
  const uniqueMembers = members.filter(
    (pe, i) => i === 0 || comparePathElements(members[i - 1] as PathElement, pe) !== 0,
  );
  // Of two keys naming the same element, the later one wins, as in structured-merge-diff.
  const uniqueChildren = children.filter(
    (c, i) =>
      i === children.length - 1 || comparePathElements((children[i + 1] as FieldSetChild).element, c.element) !== 0,
  );
  return { children: new FieldSet(uniqueMembers, uniqueChildren), isMember };
}

/** The set a fieldsV1 value (decoded JSON, or its raw text) describes; throws when it is malformed. */
export function decodeFieldsV1(fields: unknown): FieldSet {
  const value = typeof fields === "string" ? (JSON.parse(fields) as unknown) : fields;
  return readNode(value, "fieldsV1").children ?? new FieldSet();
}
