// The metadata rules kube-apiserver applies to every built-in kind: apimachinery's ValidateObjectMeta and
// ValidateObjectMetaUpdate with core's rule that an unqualified finalizer name must be a standard one (not
// applied by the apiextensions server, to definitions and custom resources), worded as kube words them. managedFields are left to server-side apply.
import { type FieldError, forbidden, invalid, required, tooLong } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { goQuote } from "../errors/go-format.js";
import type { NameFormat } from "../registry/kind-record.js";
import { labelValueErrors, qualifiedNameErrors } from "../selection/label-validation.js";
import { immutableField, nonNegative } from "./field-rules.js";
import { dnsLabelErrors, nameErrors } from "./name-formats.js";
import { asObject, type JsonObject, listItems } from "./walk.js";

export interface ObjectMetaOptions {
  namespaced: boolean;
  nameFormat: NameFormat;
  /** Only apimachinery's rules: a finalizer without a domain prefix need not be a standard one (apiextensions). */
  generic?: boolean;
  /** The kind's own ValidateNameFunc, in place of `nameFormat` (IPAddress names are IP addresses). */
  nameErrors?: (name: string, prefix: boolean) => string[];
}

const totalAnnotationSizeLimit = 256 * 1024;
const standardFinalizers = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** A string map's entries; a JSON null value reads as "", as Go decodes null into a string. */
function stringEntries(value: unknown): [string, string][] {
  return Object.entries(asObject(value) ?? {})
    .map(([k, v]): [string, unknown] => [k, v === null ? "" : v])
    .filter((e): e is [string, string] => typeof e[1] === "string");
}

/**
 * A name that will get a random suffix (generateName) may end in a dash. kube masks it by replacing the
 * last two characters with one letter.
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith("-") ? `${name.slice(0, -2)}a` : name;
}

/** ValidateNameFunc of a format; path segments (RBAC) ignore `prefix`, as kube's RBAC names do. */
function formatErrors(format: NameFormat, name: string, prefix: boolean): string[] {
  return nameErrors(format, prefix && format !== "path-segment" ? maskTrailingDash(name) : name);
}

/** ValidateLabels: every key and every value, reported on the map's path. */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of stringEntries(labels)) {
    for (const msg of qualifiedNameErrors(k)) errs.push(invalid(path, k, msg));
    for (const msg of labelValueErrors(v)) errs.push(invalid(path, v, msg));
  }
  return errs;
}

/** ValidateAnnotations: keys are qualified names in any case; keys and values total 256 KiB at most. */
export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of stringEntries(annotations)) {
    for (const msg of qualifiedNameErrors(k.toLowerCase())) errs.push(invalid(path, k, msg));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > totalAnnotationSizeLimit) errs.push(tooLong(path, totalAnnotationSizeLimit));
  return errs;
}

/** Version and group of an apiVersion as schema.ParseGroupVersion reads it; undefined when unparsable. */
function parseApiVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split("/");
  if (apiVersion === "") return { group: "", version: "" };
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? "", version: parts[1] ?? "" };
  return undefined;
}

function validateOwnerReference(ref: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = text(ref.apiVersion);
  const kind = text(ref.kind);
  const gv = parseApiVersion(apiVersion) ?? { group: "", version: "" };
  if (gv.version === "") errs.push(invalid(child(path, "apiVersion"), apiVersion, "version must not be empty"));
  if (kind === "") errs.push(invalid(child(path, "kind"), kind, "must not be empty"));
  for (const field of ["name", "uid"]) {
    const value = text(ref[field]);
    if (value === "") errs.push(invalid(child(path, field), value, "must not be empty"));
  }
  // Events may not own anything: their lifetime is too short for the garbage collector.
  if (gv.group === "" && gv.version === "v1" && kind === "Event") {
    errs.push(invalid(path, ref, "/v1, Kind=Event is disallowed from being an owner"));
  }
  return errs;
}

/** ValidateOwnerReferences: paths are the list's, without an index, as kube reports them. */
export function validateOwnerReferences(refs: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = "";
  for (const item of listItems(refs)) {
    const ref = asObject(item);
    if (ref === undefined) continue;
    errs.push(...validateOwnerReference(ref, path));
    if (ref.controller !== true) continue;
    const controller = `${text(ref.kind)}/${text(ref.name)}`;
    if (firstController === "") firstController = controller;
    else {
      const detail = `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${controller}`;
      errs.push(invalid(path, refs, detail));
    }
  }
  return errs;
}

const notQualified = "name is neither a standard finalizer name nor is it fully qualified";

/** Without a domain prefix a finalizer must be one of kube's own. */
function nonStandard(name: string): boolean {
  return !name.includes("/") && !standardFinalizers.has(name);
}

/** A finalizer name on one path: a qualified name, and a standard one when it has no prefix. */
export function finalizerNameErrors(name: string, path: string): FieldError[] {
  const errs = qualifiedNameErrors(name).map((msg) => invalid(path, name, msg));
  if (nonStandard(name)) errs.push(invalid(path, name, notQualified));
  return errs;
}

function validateFinalizers(value: unknown, path: string, generic: boolean): FieldError[] {
  const finalizers = listItems(value).filter((f): f is string => typeof f === "string");
  const errs: FieldError[] = [];
  for (const f of finalizers) for (const msg of qualifiedNameErrors(f)) errs.push(invalid(path, f, msg));
  if (finalizers.includes("orphan") && finalizers.includes("foregroundDeletion")) {
    errs.push(invalid(path, value, "finalizer orphan and foregroundDeletion cannot be both set"));
  }
  if (generic) return errs;
  listItems(value).forEach((f, i) => {
    if (typeof f === "string" && nonStandard(f)) errs.push(invalid(index(path, i), f, notQualified));
  });
  return errs;
}

/**
 * ValidateObjectMeta for a create or the new object of an update. The name is expected to be generated
 * already when generateName is set.
 */
export function validateObjectMeta(meta: JsonObject, options: ObjectMetaOptions, path = "metadata"): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = text(meta.generateName);
  if (generateName !== "") {
    const prefixMessages =
      options.nameErrors?.(generateName, true) ?? formatErrors(options.nameFormat, generateName, true);
    for (const msg of prefixMessages) {
      errs.push(invalid(child(path, "generateName"), generateName, msg));
    }
  }
  const name = text(meta.name);
  if (name === "") errs.push(required(child(path, "name"), "name or generateName is required"));
  else {
    const nameMessages = options.nameErrors?.(name, false) ?? formatErrors(options.nameFormat, name, false);
    for (const msg of nameMessages) errs.push(invalid(child(path, "name"), name, msg));
  }

  const namespace = text(meta.namespace);
  if (options.namespaced) {
    if (namespace === "") errs.push(required(child(path, "namespace")));
    else for (const msg of dnsLabelErrors(namespace)) errs.push(invalid(child(path, "namespace"), namespace, msg));
  } else if (namespace !== "") {
    errs.push(forbidden(child(path, "namespace"), "not allowed on this type"));
  }
  errs.push(...nonNegative(meta.generation, child(path, "generation")));
  errs.push(...validateLabels(meta.labels, child(path, "labels")));
  errs.push(...validateAnnotations(meta.annotations, child(path, "annotations")));
  errs.push(...validateOwnerReferences(meta.ownerReferences, child(path, "ownerReferences")));
  errs.push(...validateFinalizers(meta.finalizers, child(path, "finalizers"), options.generic === true));
  return errs;
}

/** Go's %#v of a []string: `[]string{"a", "b"}`. */
function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map(goQuote).join(", ")}}`;
}

function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== "string" || typeof b !== "string") return (a ?? null) === (b ?? null);
  return Math.floor(Date.parse(a) / 1000) === Math.floor(Date.parse(b) / 1000);
}

/**
 * What ValidateObjectMetaUpdate adds to ValidateObjectMeta: the rules about the change. Call both on an
 * update, as kube's kinds do. The resourceVersion rule is not here: kube's store fills the stored
 * version in before validation when the client sent none.
 */
export function validateObjectMetaUpdate(meta: JsonObject, old: JsonObject, path = "metadata"): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp !== undefined && old.deletionTimestamp !== null) {
    const before = new Set(listItems(old.finalizers));
    const added = [...new Set(listItems(meta.finalizers))]
      .filter((f): f is string => typeof f === "string" && !before.has(f))
      .sort();
    if (added.length > 0) {
      const detail = `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added)}`;
      errs.push(forbidden(child(path, "finalizers"), detail));
    }
  }
  if (typeof meta.generation === "number" && typeof old.generation === "number" && meta.generation < old.generation) {
    errs.push(invalid(child(path, "generation"), meta.generation, "must not be decremented"));
  }
  for (const field of ["name", "namespace", "uid"]) {
    errs.push(...immutableField(text(meta[field]), text(old[field]), child(path, field)));
  }
  for (const field of ["creationTimestamp", "deletionTimestamp"]) {
    if (!sameInstant(meta[field], old[field]))
      errs.push(...immutableField(meta[field], old[field], child(path, field)));
  }
  errs.push(
    ...immutableField(
      meta.deletionGracePeriodSeconds,
      old.deletionGracePeriodSeconds,
      child(path, "deletionGracePeriodSeconds"),
    ),
  );
  return errs;
}
