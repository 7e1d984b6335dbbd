// JSON Patch (RFC 6902) as kube-apiserver applies it: gopkg.in/evanphx/json-patch.v4 with its defaults
// (negative array indices on) and the limits kube sets (10000 operations, 3 MiB of accumulated `copy`).
// Two steps, as kube's handler takes them: `decodeJsonPatch` reads the body (400 or 413 on failure) and
// `applyJsonPatch` applies it to an object, as often as a conflict makes the handler retry (422 on failure).
// The library is followed where it departs from the RFC, since clients see its answers:
// - a path is split on "/" and its first piece dropped, so "a/b" means "/b", and "" or "a" name nothing
//   (only `replace` and `test` take "" for the whole document; `add` with "" fails);
// - array indices are read by Go's strconv.Atoi: "01", "+1" and "-1" are indices, a negative one counts
//   from the end (for `add`, "-1" is the end itself);
// - a missing object member reads as null: `replace` of it adds it, `copy` from it copies null, `test`
//   of it against null passes; an operation without `value` uses null;
// - escapes are `~1` then `~0` in one pass; any other `~` stays as written.
// kube answers every failure while applying with one 422 Status whose message does not say what failed;
// the library's own wording is kept as the error's `cause`, for logs and tests.
import { jsonKind } from "../codecs/decode-errors.js";
import type { FieldValidation } from "../codecs/field-validation.js";
import { parseJson } from "../codecs/json-body.js";
import { cloneJson, goJsonByteLength, jsonEqual } from "../codecs/json-tree.js";
import { type DuplicateKeys, fieldPath, setKey } from "../codecs/parsed-body.js";
import { goQuote } from "../errors/go-format.js";
import { badRequest, genericServerResponse, requestEntityTooLarge, type StatusError } from "../errors/status-error.js";
import { isJsonObject, type JsonObject } from "../object/json-object.js";

/** kube-apiserver's maxJSONPatchOperations. */
export const maxJsonPatchOperations = 10000;

/** kube-apiserver's JSONPatchMaxCopyBytes, which it installs as the library's AccumulatedCopySizeLimit. */
export const maxAccumulatedCopyBytes = 3 * 1024 * 1024;

/** One operation as the patch spelled it (any member missing or mistyped), or a `null` list element. */
export type JsonPatchOperation = Readonly<Record<string, unknown>> | null;

export interface JsonPatch {
  readonly operations: readonly JsonPatchOperation[];
  /**
   * Strict-decoding problems of the operations themselves, in document order, as kube words them
   * (`json patch unknown field "[0].foo"`, `json patch duplicate field "[1].path"`); none under Ignore.
   */
  readonly problems: readonly string[];
}

type Container = JsonObject | unknown[];

/** kube's jsonPatchOp struct, into which it strict-decodes the patch under Warn and Strict. */
const opFields: ReadonlySet<string> = new Set(["op", "path", "from", "value"]);
const stringFields: ReadonlySet<string> = new Set(["op", "path", "from"]);

/** sigs.k8s.io/json stops collecting strict errors here. */
const maxProblems = 100;

function isContainer(v: unknown): v is Container {
  return typeof v === "object" && v !== null;
}

function kindOf(v: unknown): string {
  return v === null ? "null" : jsonKind(v);
}

function cannotUnmarshal(v: unknown, type: string): string {
  return `json: cannot unmarshal ${kindOf(v)} into Go value of type ${type}`;
}

/**
 * The first value encoding/json cannot store in kube's target type, in document order: under Ignore the
 * library's `Patch` (a list of maps), under Warn and Strict kube's `[]jsonPatchOp` (op, path, from strings).
 */
function typeError(patch: unknown, strict: boolean): string | undefined {
  if (patch === null) return undefined;
  if (!Array.isArray(patch)) return cannotUnmarshal(patch, strict ? "[]handlers.jsonPatchOp" : "jsonpatch.Patch");
  for (const op of patch) {
    if (op === null) continue;
    if (!isJsonObject(op)) return cannotUnmarshal(op, strict ? "handlers.jsonPatchOp" : "jsonpatch.Operation");
    if (!strict) continue;
    for (const [key, v] of Object.entries(op)) {
      if (stringFields.has(key) && v !== null && typeof v !== "string") {
        return `json: cannot unmarshal ${kindOf(v)} into Go struct field jsonPatchOp.${key} of type string`;
      }
    }
  }
  return undefined;
}

/** A container the problem walk is inside: an operation (a struct), or a map or list within a value. */
type WalkFrame =
  | {
      kind: "object";
      obj: Readonly<JsonObject>;
      struct?: ReadonlySet<string>;
      keys: string[];
      next: number;
      repeatsDone: number;
    }
  | { kind: "list"; list: readonly unknown[]; next: number };

/**
 * Unknown and repeated members as kube's strict decoding of `[]jsonPatchOp` reports them, in document order.
 * Values may nest as deep as the decoder allows, so the walk keeps its own stack.
 */
class ProblemWalker {
  readonly problems: string[] = [];
  private readonly path: (string | number)[] = [];
  private readonly frames: WalkFrame[] = [];

  constructor(private readonly repeats: DuplicateKeys) {}

  operations(list: readonly JsonPatchOperation[]): void {
    list.forEach((op, i) => {
      if (op === null) return;
      this.path.push(i);
      this.enterObject(op, opFields);
      this.run();
    });
  }

  private report(problem: "unknown" | "duplicate", key: string): void {
    this.path.push(key);
    const text = `json patch ${problem} field ${goQuote(fieldPath(this.path))}`;
    this.path.pop();
    if (this.problems.length < maxProblems && !this.problems.includes(text)) this.problems.push(text);
  }

  /** `struct` names the known fields of a struct; a map has none unknown. */
  private enterObject(obj: Readonly<JsonObject>, struct?: ReadonlySet<string>): void {
    this.frames.push({
      kind: "object",
      obj,
      ...(struct ? { struct } : {}),
      keys: Object.keys(obj),
      next: 0,
      repeatsDone: 0,
    });
  }

  /** A member's value at `at`: containers are walked, scalars have nothing to report. */
  private enterMember(v: unknown, at: string | number): void {
    this.path.push(at);
    if (Array.isArray(v)) this.frames.push({ kind: "list", list: v, next: 0 });
    else if (isJsonObject(v)) this.enterObject(v);
    else this.path.pop();
  }

  /** Repeats Go's decoder meets before the member at index `upTo`, reported where they stood. */
  private repeatsBefore(frame: WalkFrame & { kind: "object" }, upTo: number): void {
    const repeats = this.repeats.get(frame.obj) ?? [];
    for (
      ;
      frame.repeatsDone < repeats.length && (repeats[frame.repeatsDone]?.after ?? 0) <= upTo;
      frame.repeatsDone++
    ) {
      const key = repeats[frame.repeatsDone]?.key ?? "";
      this.report(frame.struct === undefined || frame.struct.has(key) ? "duplicate" : "unknown", key);
    }
  }

  private run(): void {
    for (let frame = this.frames.at(-1); frame !== undefined; frame = this.frames.at(-1)) {
      if (frame.kind === "list") {
        if (frame.next < frame.list.length) this.enterMember(frame.list[frame.next], frame.next++);
        else this.leave();
        continue;
      }
      const key = frame.keys[frame.next];
      if (key === undefined) {
        this.repeatsBefore(frame, frame.keys.length);
        this.leave();
        continue;
      }
      this.repeatsBefore(frame, frame.next);
      frame.next++;
      if (frame.struct !== undefined && !frame.struct.has(key)) this.report("unknown", key);
      else if (frame.struct === undefined || key === "value") this.enterMember(frame.obj[key], key);
    }
  }

  private leave(): void {
    this.frames.pop();
    this.path.pop();
  }
}

/**
 * Reads a JSON patch as kube-apiserver does at a fieldValidation level (kube's default is Warn). Throws
 * kube's 400 for a body that is not JSON or not a list of operations (under Warn and Strict prefixed
 * `error decoding patch: `, and then also for an op, path or from that is not a string), and its 413 for
 * more than 10000 operations. A `null` body is a patch of no operations.
 */
export function decodeJsonPatch(body: Buffer | string, level: FieldValidation): JsonPatch {
  const strict = level !== "Ignore";
  const decodeError = (message: string) => badRequest(strict ? `error decoding patch: ${message}` : message);
  const parsed = parseJson(typeof body === "string" ? Buffer.from(body, "utf8") : body);
  if ("error" in parsed) throw decodeError(parsed.error);
  const failure = typeError(parsed.value, strict);
  if (failure !== undefined) throw decodeError(failure);
  const operations = (parsed.value ?? []) as JsonPatchOperation[];
  if (operations.length > maxJsonPatchOperations) {
    throw requestEntityTooLarge(
      `The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${operations.length}`,
    );
  }
  if (!strict) return { operations, problems: [] };
  const walker = new ProblemWalker(parsed.duplicateKeys);
  walker.operations(operations);
  return { operations, problems: walker.problems };
}

/** A failure in the library's words; it ends the patch. */
class PatchFailure extends Error {}

function fail(message: string): never {
  throw new PatchFailure(message);
}

/** Runs `step`: its result, or the failure that ended it. */
function attempt<T>(step: () => T): { value: T } | { failure: PatchFailure } {
  try {
    return { value: step() };
  } catch (e) {
    if (e instanceof PatchFailure) return { failure: e };
    throw e;
  }
}

/** Runs `step`, prefixing the message of a failure in it, as the library wraps its errors. */
function wrapped<T>(prefix: string, step: () => T): T {
  const outcome = attempt(step);
  return "value" in outcome ? outcome.value : fail(`${prefix}: ${outcome.failure.message}`);
}

const missing = "missing value";
const invalidIndex = "invalid index referenced";

/** strconv.Atoi: an optional sign and decimal digits, within int64. */
function atoi(text: string): bigint {
  if (!/^[+-]?[0-9]+$/.test(text)) fail(`strconv.Atoi: parsing ${goQuote(text)}: invalid syntax`);
  const n = BigInt(text);
  if (n >= 2n ** 63n || n < -(2n ** 63n)) fail(`strconv.Atoi: parsing ${goQuote(text)}: value out of range`);
  return n;
}

/** An index of an existing element; a negative one counts from the end. */
function elementIndex(arr: readonly unknown[], key: string): number {
  const n = atoi(key);
  const length = BigInt(arr.length);
  if (n >= length || n < -length) fail(`Unable to access invalid index: ${n}: ${invalidIndex}`);
  return Number(n < 0n ? n + length : n);
}

/** A member's value; undefined when it is missing. */
function read(container: Container, key: string): unknown {
  if (Array.isArray(container)) return container[elementIndex(container, key)];
  return Object.hasOwn(container, key) ? container[key] : undefined;
}

function insert(container: Container, key: string, value: unknown): void {
  if (!Array.isArray(container)) setKey(container, key, value);
  else if (key === "-") container.push(value);
  else insertAt(container, key, value);
}

function insertAt(container: unknown[], key: string, value: unknown): void {
  const n = wrapped(`value was not a proper array index: '${key}'`, () => atoi(key));
  const length = BigInt(container.length + 1);
  if (n >= length || n < -length) fail(`Unable to access invalid index: ${n}: ${invalidIndex}`);
  container.splice(Number(n < 0n ? n + length : n), 0, value);
}

function remove(container: Container, key: string): void {
  if (Array.isArray(container)) container.splice(elementIndex(container, key), 1);
  else if (Object.hasOwn(container, key)) delete container[key];
  else fail(`Unable to remove nonexistent key: ${key}: ${missing}`);
}

/** The container a path points into and the last, unescaped token; undefined when it names nothing. */
interface Location {
  container: Container;
  key: string;
}

function unescapeToken(token: string): string {
  return token.replace(/~[01]/g, (sequence) => (sequence === "~1" ? "/" : "~"));
}

function locate(root: Container, path: string): Location | undefined {
  const tokens = path.split("/");
  if (tokens.length < 2) return undefined;
  let container = root;
  for (const token of tokens.slice(1, -1)) {
    const next = attempt(() => read(container, unescapeToken(token)));
    if (!("value" in next) || !isContainer(next.value)) return undefined;
    container = next.value;
  }
  return { container, key: unescapeToken(tokens.at(-1) ?? "") };
}

/** A string member; a missing or null one fails with `missingText`, another type as encoding/json says. */
function stringMember(op: JsonObject, name: string, missingText: string): string {
  const v = op[name];
  if (v === undefined || v === null) fail(missingText);
  if (typeof v !== "string") fail(cannotUnmarshal(v, "string"));
  return v;
}

function pathOf(op: JsonObject): string {
  return stringMember(op, "path", `operation missing path field: ${missing}`);
}

/** The path, for the operations where the library reports any problem with it as plain `missing value`. */
function requiredPath(op: JsonObject, operation: string): string {
  const outcome = attempt(() => pathOf(op));
  return "value" in outcome ? outcome.value : fail(`${operation} operation failed to decode path: ${missing}`);
}

function fromOf(op: JsonObject): string {
  return stringMember(op, "from", `operation, missing from field: ${missing}`);
}

/** The operation's value, copied so that a retried patch starts from the values it was decoded with. */
function operationValue(op: JsonObject): unknown {
  return op.value === undefined ? null : cloneJson(op.value);
}

class Application {
  private copied = 0;
  private readonly steps: ReadonlyMap<string, (op: JsonObject) => void> = new Map([
    ["add", (op) => this.add(op)],
    ["remove", (op) => this.remove(op)],
    ["replace", (op) => this.replace(op)],
    ["move", (op) => this.move(op)],
    ["test", (op) => this.test(op)],
    ["copy", (op) => this.copy(op)],
  ]);

  constructor(public root: Container) {}

  apply(op: JsonObject): void {
    const kind = typeof op.op === "string" ? op.op : "unknown";
    const step = this.steps.get(kind) ?? fail(`Unexpected kind: ${kind}`);
    step(op);
  }

  private add(op: JsonObject): void {
    const path = requiredPath(op, "add");
    const at = this.locate(path, `add operation does not apply: doc is missing path: "${path}"`);
    wrapped(`error in add for path: '${path}'`, () => insert(at.container, at.key, operationValue(op)));
  }

  private remove(op: JsonObject): void {
    const path = requiredPath(op, "remove");
    const at = this.locate(path, `remove operation does not apply: doc is missing path: "${path}"`);
    wrapped(`error in remove for path: '${path}'`, () => remove(at.container, at.key));
  }

  private replace(op: JsonObject): void {
    const path = wrapped("replace operation failed to decode path", () => pathOf(op));
    if (path === "") {
      const value = operationValue(op);
      // The library wraps a nil error here, which Go prints as %!w(<nil>).
      if (!isContainer(value)) fail("replace operation value must be object or array: %!w(<nil>)");
      this.root = value;
      return;
    }
    const at = this.locate(path, `replace operation does not apply: doc is missing path: ${path}`);
    if ("failure" in attempt(() => read(at.container, at.key)))
      fail(`replace operation does not apply: doc is missing key: ${path}: ${missing}`);
    if (Array.isArray(at.container)) at.container[elementIndex(at.container, at.key)] = operationValue(op);
    else setKey(at.container, at.key, operationValue(op));
  }

  private move(op: JsonObject): void {
    const from = wrapped("move operation failed to decode from", () => fromOf(op));
    const source = this.locate(from, `move operation does not apply: doc is missing from path: ${from}`);
    const value = wrapped(`error in move for path: '${source.key}'`, () => {
      const v = read(source.container, source.key);
      remove(source.container, source.key);
      return v ?? null;
    });
    const path = wrapped("move operation failed to decode path", () => pathOf(op));
    const at = this.locate(path, `move operation does not apply: doc is missing destination path: ${path}`);
    wrapped(`error in move for path: '${path}'`, () => insert(at.container, at.key, value));
  }

  private test(op: JsonObject): void {
    const path = wrapped("test operation failed to decode path", () => pathOf(op));
    let actual: unknown = this.root;
    if (path !== "") {
      const at = this.locate(path, `test operation does not apply: is missing path: ${path}`);
      actual = wrapped(`error in test for path: '${path}'`, () => read(at.container, at.key));
    }
    // A missing member and null are the same to the library, and so are a missing value and null.
    if (!jsonEqual(actual ?? null, op.value ?? null)) fail(`testing value ${path} failed: test failed`);
  }

  private copy(op: JsonObject): void {
    const from = wrapped("copy operation failed to decode from", () => fromOf(op));
    const source = this.locate(from, `copy operation does not apply: doc is missing from path: ${from}`);
    const value = wrapped(`error in copy for from: '${from}'`, () => read(source.container, source.key)) ?? null;
    const path = requiredPath(op, "copy");
    const at = this.locate(path, `copy operation does not apply: doc is missing destination path: ${path}`);
    // The library counts the bytes of the copy's JSON, and nothing for a null.
    this.copied += value === null ? 0 : goJsonByteLength(value);
    if (this.copied > maxAccumulatedCopyBytes) {
      fail(
        `Unable to complete the copy, the accumulated size increase of copy is ${this.copied}, exceeding the limit ${maxAccumulatedCopyBytes}`,
      );
    }
    wrapped("error while adding value during copy", () => insert(at.container, at.key, cloneJson(value)));
  }

  private locate(path: string, doesNotApply: string): Location {
    return locate(this.root, path) ?? fail(`${doesNotApply}: ${missing}`);
  }
}

/** kube's answer to any failure while applying: NewGenericServerResponse(422) with no server message. */
function applyFailed(cause: PatchFailure): StatusError {
  const error = genericServerResponse(422, "Invalid", "the server rejected our request due to an error in our request");
  error.cause = cause;
  return error;
}

/**
 * Applies a JSON patch to a copy of `document` (an object or array; the input is left as it was) and
 * returns the result. `patch` is a decoded patch, or a request body, which is decoded at `level` first
 * and may fail as `decodeJsonPatch` does. Every failure while applying throws kube's 422 StatusError
 * `the server rejected our request due to an error in our request`, with the library's message as its
 * `cause` (`testing value /a failed: test failed`, `add operation does not apply: doc is missing path:
 * "/a/b": missing value`, …).
 */
export function applyJsonPatch(
  document: unknown,
  patch: JsonPatch | Buffer | string,
  level: FieldValidation = "Warn",
): unknown {
  const { operations } = typeof patch === "string" || Buffer.isBuffer(patch) ? decodeJsonPatch(patch, level) : patch;
  try {
    if (!isContainer(document)) fail(cannotUnmarshal(document, "jsonpatch.partialDoc"));
    const application = new Application(cloneJson(document));
    for (const op of operations) application.apply(op ?? {});
    return application.root;
  } catch (e) {
    if (e instanceof PatchFailure) throw applyFailed(e);
    throw e;
  }
}
