// The scale subresource: an autoscaling/v1 Scale read from and written to the paths the kind's scale
// record names in the parent object (spec and status replicas, the label selector). A Scale write changes
// the parent's replicas through the update path, recorded with subresource scale.
import * as fe from "../errors/field-error.js";
import { conflict, invalid, isConflict, notFound } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { SubresourceRecord } from "../registry/kind-record.js";
import { apiVersionOf, groupResource } from "../registry/kinds.js";
import { type LabelSelectorObject, labelSelectorFromObject } from "../selection/label-selector-object.js";
import type { ApiContext, Target } from "./api-context.js";
import { controllerOwner, type WriteOptions } from "./create-object.js";
import { getObject } from "./get-object.js";
import { objectMeta } from "./object-access.js";
import { modifiedCause, updateObject } from "./update-object.js";

export type ScaleRecord = SubresourceRecord & {
  scale: NonNullable<SubresourceRecord["scale"]>;
  kind: NonNullable<SubresourceRecord["kind"]>;
};

/** The target kind's scale record, or a 404 when it has no scale subresource. */
export function scaleRecord(target: Target): ScaleRecord {
  const record = target.kind.resource.subresources.find((s) => s.name === "scale");
  if (record?.scale === undefined || record.kind === undefined)
    throw notFound(groupResource(target.kind), target.name ?? "");
  return record as ScaleRecord;
}

function segments(path: string): string[] {
  return path.replace(/^\./, "").split(".");
}

function readPath(obj: KubeObject, path: string): unknown {
  let value: unknown = obj;
  for (const key of segments(path)) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Sets the value at a scale record's path (`.spec.replicas`), making the objects on the way. */
export function writePath(obj: KubeObject, path: string, value: unknown): void {
  const keys = segments(path);
  let node = obj as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1) as string] = value;
}

/** A selector object in its string form, as kube's FormatLabelSelector; a string is taken as it is. */
function formatSelector(selector: unknown): string | undefined {
  if (typeof selector === "string") return selector;
  if (typeof selector !== "object" || selector === null) return undefined;
  const parsed = labelSelectorFromObject(selector as LabelSelectorObject);
  return parsed.ok ? parsed.selector.toString() : undefined;
}

/** The Scale of `parent`. */
export function scaleOf(parent: KubeObject, record: ScaleRecord): KubeObject {
  const meta = objectMeta(parent);
  const selectorPath = record.scale.labelSelectorPath;
  const selector =
    selectorPath === undefined ? undefined : (readPath(parent, selectorPath) ?? readPath(parent, ".spec.selector"));
  const formatted = formatSelector(selector);
  return {
    kind: record.kind.kind,
    apiVersion: apiVersionOf(record.kind),
    metadata: {
      name: meta.name,
      ...(meta.namespace === undefined ? {} : { namespace: meta.namespace }),
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: { replicas: readPath(parent, record.scale.specReplicasPath) ?? 0 },
    status: {
      replicas: readPath(parent, record.scale.statusReplicasPath) ?? 0,
      ...(formatted === undefined ? {} : { selector: formatted }),
    },
  };
}

/** The replicas a Scale asks for, refused when negative as kube's Scale validation does. */
export function replicasOf(scale: KubeObject, record: ScaleRecord, name: string): number {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas === "number" && replicas < 0) {
    throw invalid({ group: record.kind.group, name: record.kind.kind }, name, [
      fe.invalid("spec.replicas", replicas, "must be greater than or equal to 0"),
    ]);
  }
  return typeof replicas === "number" ? replicas : 0;
}

export async function getScale(api: ApiContext, target: Target): Promise<KubeObject> {
  const record = scaleRecord(target);
  const { object } = await getObject(api, { ...target, subresource: undefined });
  return scaleOf(object, record);
}

/**
 * Writes the replicas of `scale` into the parent, guarded by the Scale's resourceVersion when it has one;
 * without one, a concurrent write means writing them into the newer parent.
 */
export async function writeScale(
  api: ApiContext,
  target: Target,
  record: ScaleRecord,
  scale: KubeObject,
  options: WriteOptions,
): Promise<KubeObject> {
  const name = target.name as string;
  const replicas = replicasOf(scale, record, name);
  const requested = objectMeta(scale).resourceVersion;
  const pinned = typeof requested === "string" && requested !== "";
  const parentTarget = { ...target, subresource: undefined };
  for (;;) {
    const current = structuredClone((await getObject(api, parentTarget)).object);
    if (pinned && requested !== objectMeta(current).resourceVersion) {
      throw conflict(groupResource(target.kind), name, modifiedCause);
    }
    writePath(current, record.scale.specReplicasPath, replicas);
    try {
      const { object } = await updateObject(api, parentTarget, current, options);
      return scaleOf(object, record);
    } catch (error) {
      if (!isConflict(error) || pinned) throw error;
    }
  }
}

/** An update (PUT) of the Scale: its writer is recorded on the parent with subresource scale. */
export function updateScale(
  api: ApiContext,
  target: Target,
  scale: KubeObject,
  options: WriteOptions = {},
): Promise<KubeObject> {
  const record = scaleRecord(target);
  const owner = { manager: (options.owner ?? controllerOwner).manager, subresource: "scale" };
  return writeScale(api, target, record, scale, { ...options, owner });
}
