// A patched object read as kube-apiserver's PATCH handler reads it before the update: a JSON or merge patch
// result is decoded from its JSON (kube re-encodes it and decodes it into the kind's type), a strategic
// patch result is converted from the map it is. What that decoding refuses is answered with kube's 422
// `"" is invalid: patch: Invalid value: "<the patched JSON>": <the decoder's reason>` (for a strategic
// patch the value is the patch, printed as Go prints a map), and what it drops (null members, a strategic
// patch's change of apiVersion or kind) is dropped here too.
import { fieldTable } from "../../generated/fields.js";
import { type GroupVersionKind, jsonKind } from "../codecs/decode-errors.js";
import { cloneJson, containerBeyondDepth, goJsonText, withoutNullMembers } from "../codecs/json-tree.js";
import { maxObjectDepth, storedObjectTooDeep } from "../codecs/object-depth.js";
import { checkFields, kindFields } from "../codecs/unknown-fields.js";
import * as fe from "../errors/field-error.js";
import { badRequest, invalid, type StatusError } from "../errors/status-error.js";
import { isJsonObject, type JsonObject } from "../object/json-object.js";
import { goV } from "./go-print.js";

export type PatchType = "json" | "merge" | "strategic";

/** A patch result and how it came about: the patch type and the decoded patch body. */
export interface Patched {
  type: PatchType;
  result: unknown;
  patch: unknown;
}

/** The kind served at the endpoint; `custom` for a custom resource, whose objects decode as unstructured. */
export type PatchedKind = GroupVersionKind & { custom?: { prune(obj: unknown): string[] } };

/** kube's 422 for a patched object its decoding refuses. */
export function patchRefused(patched: Patched, reason: string): StatusError {
  const value = patched.type === "strategic" ? goV(patched.patch) : goJsonText(patched.result);
  return invalid({ group: "", name: "" }, "", [fe.invalid("patch", value, reason)]);
}

const typeMetaStruct =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function versionKindError(reason: string): string {
  return `couldn't get version/kind; json parse error: ${reason}`;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf("/") + 1);
}

/** The package kube's internal types of a group live in: `core` for the core group, else its first label. */
function internalPackage(group: string): string {
  return group === "" ? "core" : (group.split(".")[0] as string);
}

/**
 * The apiVersion and kind of a JSON or merge patch result, as kube's decoding reads them before anything
 * else. A built-in kind decodes into the type they name and must convert to the served one; a custom
 * resource's validation requires the served ones. Empty ones are the served ones, filled in later.
 */
function checkTypeMeta(patched: Patched, obj: JsonObject, kind: PatchedKind): void {
  for (const key of ["apiVersion", "kind"]) {
    const v = obj[key];
    if (v !== undefined && v !== null && typeof v !== "string") {
      throw patchRefused(
        patched,
        versionKindError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field .${key} of type string`),
      );
    }
  }
  const served = kind.group === "" ? kind.version : `${kind.group}/${kind.version}`;
  const apiVersion = typeof obj.apiVersion === "string" ? obj.apiVersion : "";
  const objKind = typeof obj.kind === "string" ? obj.kind : "";
  if (kind.custom !== undefined) {
    if (objKind === "") throw patchRefused(patched, `Object 'Kind' is missing in '${goJsonText(obj)}'`);
    // kube answers this one 500, though the patch removed the apiVersion.
    if (apiVersion === "") throw badRequest("Object 'apiVersion' is missing in 'object has no apiVersion field'");
    const errors: fe.FieldError[] = [];
    if (objKind !== kind.kind) errors.push(fe.invalid("kind", objKind, `must be ${kind.kind}`));
    if (apiVersion !== served) errors.push(fe.invalid("apiVersion", apiVersion, `must be ${served}`));
    const name = isJsonObject(obj.metadata) && typeof obj.metadata.name === "string" ? obj.metadata.name : "";
    if (errors.length > 0) throw invalid({ group: groupOf(apiVersion), name: objKind }, name, errors);
    return;
  }
  if ((apiVersion === "" || apiVersion === served) && (objKind === "" || objKind === kind.kind)) return;
  const group = apiVersion === "" ? kind.group : groupOf(apiVersion);
  const version = apiVersion === "" ? kind.version : versionOf(apiVersion);
  const named = objKind === "" ? kind.kind : objKind;
  const n = kindFields(group, version, named);
  if (n === undefined) {
    throw patchRefused(
      patched,
      `no kind "${named}" is registered for version "${apiVersion || served}" in scheme "pkg/api/legacyscheme/scheme.go:30"`,
    );
  }
  if (named !== kind.kind) {
    const def = fieldTable.definitions[n];
    throw patchRefused(
      patched,
      `converting (${def?.pkg}.${def?.name}) to (${internalPackage(kind.group)}.${kind.kind}): unknown conversion`,
    );
  }
  // Another served version of the kind: kube converts from it; kapi's update path refuses it (docs/patch.md).
}

/**
 * The patch result as kube's decoding leaves it, or kube's answer: a result nested deeper than an object
 * may be is refused, a JSON or merge patch result must name the served apiVersion and kind (or none), a
 * strategic patch's change to them is ignored, and null members are dropped.
 */
export function decodePatched(patched: Patched, before: JsonObject, kind: PatchedKind): JsonObject {
  const { result } = patched;
  const tooDeep = containerBeyondDepth(result, maxObjectDepth);
  if (tooDeep !== undefined) {
    if (patched.type === "strategic") throw storedObjectTooDeep(tooDeep);
    throw patchRefused(patched, versionKindError(`invalid character '${tooDeep}' exceeded max depth`));
  }
  if (!isJsonObject(result)) {
    throw patchRefused(
      patched,
      versionKindError(`json: cannot unmarshal ${jsonKind(result)} into Go value of type ${typeMetaStruct}`),
    );
  }
  if (patched.type === "strategic") {
    const out = withoutNullMembers(result);
    out.apiVersion = before.apiVersion;
    out.kind = before.kind;
    return out;
  }
  checkTypeMeta(patched, result, kind);
  return withoutNullMembers(result);
}

const objectMetaDefinition = fieldTable.definitions.findIndex((d) => d.name === "ObjectMeta" && d.pkg === "v1");

/**
 * Removes, in place, the fields the kind does not know and returns their paths, after refusing values of
 * the wrong type as kube's decoding of the patched object does (for a custom resource, in its metadata).
 */
export function pruneUnknownPatchedFields(patched: Patched, obj: JsonObject, kind: PatchedKind): string[] {
  if (kind.custom !== undefined) {
    const metadata = obj.metadata;
    if (metadata !== undefined && metadata !== null && !isJsonObject(metadata)) {
      throw patchRefused(patched, `json: cannot unmarshal ${jsonKind(metadata)} into Go value of type v1.ObjectMeta`);
    }
    if (isJsonObject(metadata)) {
      const fatal = checkFields(cloneJson(metadata), objectMetaDefinition).fatal;
      if (fatal !== undefined) throw patchRefused(patched, fatal);
    }
    return kind.custom.prune(obj);
  }
  const n = kindFields(kind.group, kind.version, kind.kind);
  if (n === undefined) return [];
  const check = checkFields(obj, n);
  if (check.fatal !== undefined) throw patchRefused(patched, check.fatal);
  return check.unknown;
}

/** kube's check of the patched object's name against the URL's; a differing one is the update path's. */
export function checkPatchedName(obj: JsonObject, name: string): void {
  const meta = obj.metadata;
  const named = isJsonObject(meta) && typeof meta.name === "string" ? meta.name : "";
  if (named === "") {
    throw badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  }
}
