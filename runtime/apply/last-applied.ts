// How server-side apply by kubectl takes over from client-side `kubectl apply`, which records what it
// applied in the last-applied-configuration annotation. Fields that annotation lists, and that still hold
// the listed values, do not conflict with kubectl's server-side apply; and while the annotation exists,
// kubectl's applies keep it up to date, so switching back to client-side apply stays correct.

import { containerBeyondDepth } from "../codecs/json-tree.js";
import { maxObjectDepth } from "../codecs/object-depth.js";
import { goJson } from "../errors/go-format.js";
import { isJsonObject } from "../object/json-object.js";
import type { KubeObject } from "../object/kube-object.js";
import type { FieldSet } from "./fieldpath/field-set.js";
import { compareObjects } from "./typed/compare-objects.js";
import type { ManagedSchema, SchemaType } from "./typed/managed-schema.js";
import { fieldSetOf } from "./typed/to-field-set.js";
import type { TypedProblem } from "./typed/typed-problem.js";

const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration";

/** The manager name kubectl applies with; only its applies read and write the annotation. */
export const kubectlManager = "kubectl";

/** apimachinery's TotalAnnotationSizeLimitB: the annotation is dropped rather than grow them past it. */
const annotationsSizeLimit = 256 * 1024;

function annotationsOf(obj: unknown): Record<string, unknown> | undefined {
  const metadata = isJsonObject(obj) ? obj.metadata : undefined;
  const annotations = isJsonObject(metadata) ? metadata.annotations : undefined;
  return isJsonObject(annotations) ? annotations : undefined;
}

function lastApplied(obj: unknown): string | undefined {
  const value = annotationsOf(obj)?.[lastAppliedAnnotation];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The fields the annotation of `live` says were applied and that still hold the applied values; undefined
 * when there is no usable annotation in `apiVersion`.
 */
export function lastAppliedFields(
  schema: ManagedSchema,
  type: SchemaType,
  apiVersion: string,
  live: unknown,
): FieldSet | undefined {
  const text = lastApplied(live);
  if (text === undefined) return undefined;
  let applied: unknown;
  try {
    applied = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(applied) || applied.apiVersion !== apiVersion) return undefined;
  // An annotation nested deeper than any object kapi stores names no fields an object can hold.
  if (containerBeyondDepth(applied, maxObjectDepth) !== undefined) return undefined;
  const problems: TypedProblem[] = [];
  const set = fieldSetOf(schema, type, applied, problems);
  if (problems.length > 0) return undefined;
  const changed = compareObjects(schema, type, applied, live);
  return set.difference(changed.modified).difference(changed.added).difference(changed.removed);
}

function annotationsSize(annotations: Record<string, unknown>): number {
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) total += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  return total;
}

/** `result` (changed in place) with the annotation set to `config`, when `result` has the annotation. */
export function syncLastApplied(result: KubeObject, config: KubeObject): void {
  const annotations = annotationsOf(result);
  if (annotations === undefined || lastApplied(result) === undefined) return;
  const recorded = structuredClone(config);
  delete annotationsOf(recorded)?.[lastAppliedAnnotation];
  annotations[lastAppliedAnnotation] = `${goJson(recorded)}\n`;
  if (annotationsSize(annotations) > annotationsSizeLimit) delete annotations[lastAppliedAnnotation];
}
