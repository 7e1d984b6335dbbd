// The scale subresource: an autoscaling/v1 Scale read from and written to the paths the schema names in
// the parent object (spec and status replicas, the label selector).

import { applyConfiguration } from "../apply/field-manager.js";
import { parentEntriesAfterScale, replicasPath, scaleEntriesOf } from "../apply/scale-entries.js";
import * as fe from "../errors/field-error.js";
import { conflict, invalid, isConflict, notFound } from "../errors/status-error.js";
import type { SubresourceRecord } from "../registry/kind-record.js";
import type { WriteOptions } from "../resources/create-object.js";
import { apiVersionOf, groupResource } from "../resources/kinds.js";
import { managedSchemaOf } from "../resources/managed-fields.js";
import { objectMeta } from "../resources/object-access.js";
import type { Target } from "../resources/resource-api.js";
import { formatTime } from "../resources/timestamps.js";
import { modifiedCause } from "../resources/update-object.js";
import { type LabelSelectorObject, labelSelectorFromObject } from "../selection/label-selector-object.js";
import type { RequestContext } from "../server/context.js";
import type { KubeObject } from "../strategies/strategy.js";
import { admissionRequestOf } from "./admission-request.js";
import { refuseExport } from "./read-handlers.js";
import { readRequestObject } from "./request-body.js";
import { responseFormat, sendObject } from "./respond.js";
import { checkUrlName } from "./url-name.js";
import { managerOrUserAgent, parseWriteQuery } from "./write-options.js";

type ScaleRecord = SubresourceRecord & {
  scale: NonNullable<SubresourceRecord["scale"]>;
  kind: NonNullable<SubresourceRecord["kind"]>;
};

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

function writePath(obj: KubeObject, path: string, value: unknown): void {
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

export async function getScale(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  refuseExport(ctx.url.searchParams);
  const record = scaleRecord(target);
  const { object } = await ctx.server.resources.get({ ...target, subresource: undefined });
  sendObject(ctx, format, 200, target.kind, scaleOf(object, record));
}

/** Writes the replicas of `scale` into the parent, guarded by the Scale's resourceVersion when it has one. */
export async function writeScale(
  ctx: RequestContext,
  target: Target,
  record: ScaleRecord,
  scale: KubeObject,
  options: WriteOptions,
): Promise<KubeObject> {
  const name = target.name as string;
  const replicas = replicasOf(scale, record, name);
  const requested = objectMeta(scale).resourceVersion;
  const pinned = typeof requested === "string" && requested !== "";
  const api = ctx.server.resources;
  const parentTarget = { ...target, subresource: undefined };
  for (;;) {
    const current = structuredClone((await api.get(parentTarget)).object);
    if (pinned && requested !== objectMeta(current).resourceVersion) {
      throw conflict(groupResource(target.kind), name, modifiedCause);
    }
    writePath(current, record.scale.specReplicasPath, replicas);
    try {
      const { object } = await api.update(parentTarget, current, options);
      return scaleOf(object, record);
    } catch (error) {
      if (!isConflict(error) || pinned) throw error;
    }
  }
}

/** The replicas a Scale asks for, refused when negative as kube's Scale validation does. */
function replicasOf(scale: KubeObject, record: ScaleRecord, name: string): number {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas === "number" && replicas < 0) {
    throw invalid({ group: record.kind.group, name: record.kind.kind }, name, [
      fe.invalid("spec.replicas", replicas, "must be greater than or equal to 0"),
    ]);
  }
  return typeof replicas === "number" ? replicas : 0;
}

/**
 * Apply to the scale subresource: the intent is applied to the parent's Scale, whose managedFields are the
 * parent's owners of the replicas path, and the outcome is handed back to the parent (kube's ScaleHandler).
 */
export async function applyScale(
  ctx: RequestContext,
  target: Target,
  config: KubeObject,
  owner: { manager: string; force: boolean },
  dryRun: boolean,
): Promise<KubeObject> {
  const record = scaleRecord(target);
  const name = target.name as string;
  const api = ctx.server.resources;
  const parentTarget = { ...target, subresource: undefined };
  const path = replicasPath(record.scale.specReplicasPath);
  const requested = objectMeta(config).resourceVersion;
  const pinned = typeof requested === "string" && requested !== "";
  for (;;) {
    const parent = (await api.get(parentTarget)).object;
    if (pinned && requested !== objectMeta(parent).resourceVersion) {
      throw conflict(groupResource(target.kind), name, modifiedCause);
    }
    const live = scaleOf(parent, record);
    const scaleVersion = apiVersionOf(record.kind);
    const entries = scaleEntriesOf(objectMeta(parent).managedFields, path, scaleVersion);
    if (entries !== undefined) objectMeta(live).managedFields = entries;
    const applied = applyConfiguration(managedSchemaOf(record.kind), live, config, {
      manager: owner.manager,
      apiVersion: scaleVersion,
      subresource: "scale",
      time: formatTime(api.context.now()),
      kind: record.kind.kind,
      force: owner.force,
    });
    const next = structuredClone(parent);
    writePath(next, record.scale.specReplicasPath, replicasOf(applied, record, name));
    const after = parentEntriesAfterScale(
      objectMeta(parent).managedFields,
      objectMeta(applied).managedFields,
      path,
      apiVersionOf(target.kind),
    );
    if (after === undefined) delete objectMeta(next).managedFields;
    else objectMeta(next).managedFields = after;
    try {
      const { object } = await api.update(parentTarget, next, { dryRun, applied: true });
      return scaleOf(object, record);
    } catch (error) {
      if (!isConflict(error) || pinned) throw error;
    }
  }
}

export async function updateScale(ctx: RequestContext, target: Target): Promise<void> {
  const format = responseFormat(ctx, { list: false, watch: false, kind: target.kind });
  const record = scaleRecord(target);
  const query = parseWriteQuery(ctx.url.searchParams, "UpdateOptions");
  const { object: scale, warnings } = readRequestObject(ctx, record.kind, query.fieldValidation);
  checkUrlName(scale, target);
  const written = await writeScale(ctx, target, record, scale, {
    dryRun: query.dryRun,
    owner: { manager: managerOrUserAgent(query.fieldManager, ctx.req.headers["user-agent"]), subresource: "scale" },
    request: admissionRequestOf(ctx),
  });
  sendObject(ctx, format, 200, target.kind, written, { warnings });
}
