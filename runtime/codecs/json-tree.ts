// Walks of decoded JSON (patches, patched objects) that keep their own stack: a document may nest as deep
// as kube's decoders allow (10000), far beyond what recursion, structuredClone or JSON.stringify survive
// on Node's call stack. Keys are copied as own properties, so a `__proto__` member stays data. Objects are
// read with for…in: decoded JSON has no inherited enumerable members, and it is the fastest walk.

import { goNumber } from "../errors/go-format.js";
import { setKey } from "./parsed-body.js";

type JsonMap = Record<string, unknown>;
type Container = JsonMap | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

function emptyLike(value: Container): Container {
  return Array.isArray(value) ? [] : {};
}

/** A deep copy of `value`, leaving out null object members when `dropNullMembers`. */
function copyTree<T>(value: T, dropNullMembers: boolean): T {
  if (!isContainer(value)) return value;
  const root = emptyLike(value);
  const sources: Container[] = [value];
  const targets: Container[] = [root];
  for (let from = sources.pop(); from !== undefined; from = sources.pop()) {
    const to = targets.pop() as Container;
    if (Array.isArray(from)) {
      for (const member of from) {
        const copy = isContainer(member) ? emptyLike(member) : member;
        (to as unknown[]).push(copy);
        if (copy !== member) {
          sources.push(member as Container);
          targets.push(copy as Container);
        }
      }
      continue;
    }
    for (const key in from) {
      const member = from[key];
      if (dropNullMembers && member === null) continue;
      const copy = isContainer(member) ? emptyLike(member) : member;
      setKey(to as JsonMap, key, copy);
      if (copy !== member) {
        sources.push(member as Container);
        targets.push(copy as Container);
      }
    }
  }
  return root as T;
}

/** A deep copy of a JSON value. */
export function cloneJson<T>(value: T): T {
  return copyTree(value, false);
}

/** A deep copy without null object members at any depth (nulls in lists stay), as typed decoding reads them. */
export function withoutNullMembers<T>(value: T): T {
  return copyTree(value, true);
}

function memberCount(obj: JsonMap): number {
  let n = 0;
  for (const _ in obj) n++;
  return n;
}

/** Whether two JSON values are equal: same types, same members (in any order), same scalars. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const left: unknown[] = [a];
  const right: unknown[] = [b];
  while (left.length > 0) {
    const x = left.pop();
    const y = right.pop();
    if (x === y) continue;
    if (!isContainer(x) || !isContainer(y) || Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const list = y as unknown[];
      if (x.length !== list.length) return false;
      for (let i = 0; i < x.length; i++) {
        left.push(x[i]);
        right.push(list[i]);
      }
      continue;
    }
    const other = y as JsonMap;
    if (memberCount(x) !== memberCount(other)) return false;
    for (const key in x) {
      if (!Object.hasOwn(other, key)) return false;
      left.push(x[key]);
      right.push(other[key]);
    }
  }
  return true;
}

const goEscaped = /[<>&\u2028\u2029]/;

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "null";
    const text = String(value);
    return text.includes("e") ? goNumber(value) : text;
  }
  const text = JSON.stringify(value);
  if (!goEscaped.test(text)) return text;
  return text
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A container being written: its keys in writing order (none for a list), the next member, how many are out. */
interface Writing {
  value: Container;
  keys: string[] | undefined;
  next: number;
  written: number;
}

function writing(value: Container): Writing {
  return { value, keys: Array.isArray(value) ? undefined : Object.keys(value).sort(), next: 0, written: 0 };
}

/**
 * Go's json.Marshal of decoded JSON as errors/format-field-error.ts's goJson writes it (keys sorted,
 * `<`, `>`, `&` escaped, undefined members left out), at any depth.
 */
export function goJsonText(value: unknown): string {
  if (!isContainer(value)) return scalarText(value);
  let out = Array.isArray(value) ? "[" : "{";
  const stack = [writing(value)];
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const { keys } = top;
    const count = keys === undefined ? (top.value as unknown[]).length : keys.length;
    let entered: Container | undefined;
    while (top.next < count && entered === undefined) {
      const key = keys?.[top.next];
      const item = key === undefined ? (top.value as unknown[])[top.next] : (top.value as JsonMap)[key];
      top.next++;
      if (key !== undefined && item === undefined) continue;
      if (top.written++ > 0) out += ",";
      if (key !== undefined) out += `${scalarText(key)}:`;
      if (isContainer(item)) {
        out += Array.isArray(item) ? "[" : "{";
        entered = item;
      } else {
        out += scalarText(item);
      }
    }
    if (entered !== undefined) stack.push(writing(entered));
    else {
      out += keys === undefined ? "]" : "}";
      stack.pop();
    }
  }
  return out;
}

/** Whether any container in `value` lies deeper than `limit` containers, searched in no particular order. */
function nestsDeeperThan(value: Container, limit: number): boolean {
  const containers: Container[] = [value];
  const depths: number[] = [1];
  for (let container = containers.pop(); container !== undefined; container = containers.pop()) {
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    if (Array.isArray(container)) {
      for (const item of container) {
        if (isContainer(item)) {
          containers.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in container) {
      const item = container[key];
      if (isContainer(item)) {
        containers.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** The first container in document order deeper than `limit`, found by descending along first members. */
function firstBeyond(value: Container, limit: number): Container {
  const containers: Container[] = [value];
  const depths: number[] = [1];
  for (let container = containers.pop(); container !== undefined; container = containers.pop()) {
    const depth = depths.pop() as number;
    if (depth > limit) return container;
    const members = Array.isArray(container) ? container : Object.values(container);
    for (let i = members.length - 1; i >= 0; i--) {
      const item = members[i];
      if (isContainer(item)) {
        containers.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return value;
}

/**
 * The bracket of the first container, in document order, that lies deeper than `limit` containers: where
 * Go's decoder stops with `invalid character '{' exceeded max depth`. Undefined when the value nests no
 * deeper than `limit`.
 */
export function containerBeyondDepth(value: unknown, limit: number): "{" | "[" | undefined {
  if (!isContainer(value) || !nestsDeeperThan(value, limit)) return undefined;
  return Array.isArray(firstBeyond(value, limit)) ? "[" : "{";
}

/** Containers JSON.stringify can safely nest through on Node's call stack. */
const nativeDepth = 1000;

function occurrences(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/**
 * How many bytes Go's JSON of a value takes, counted on JSON.stringify's text where the value nests
 * shallowly enough for it: Go writes `<`, `>` and `&` as six-byte escapes and U+2028, U+2029 as six bytes
 * where UTF-8 takes three; numbers are counted as JavaScript writes them.
 */
export function goJsonByteLength(value: unknown): number {
  if (containerBeyondDepth(value, nativeDepth) !== undefined) return Buffer.byteLength(goJsonText(value));
  const text = JSON.stringify(value) ?? "null";
  return Buffer.byteLength(text) + 5 * occurrences(text, /[<>&]/g) + 3 * occurrences(text, /[\u2028\u2029]/g);
}
