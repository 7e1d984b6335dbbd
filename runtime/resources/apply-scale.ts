// Server-side apply to the scale subresource, as kube's ScaleHandler runs it: the configuration is applied to
// the parent's Scale, whose managedFields are the parent's owners of the replicas path, and the outcome is
// handed back to the parent, where the Scale's owners own the replicas with subresource scale.
import { applyConfiguration } from "../apply/field-manager.js";
import { parentEntriesAfterScale, replicasPath, scaleEntriesOf } from "../apply/scale-entries.js";
import { conflict, isConflict } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { apiVersionOf, groupResource } from "../registry/kinds.js";
import type { ApiContext, Target } from "./api-context.js";
import type { WriteOptions } from "./create-object.js";
import { managedSchemaOf } from "./field-ownership.js";
import { getObject } from "./get-object.js";
import { objectMeta } from "./object-access.js";
import { replicasOf, scaleOf, scaleRecord, writePath } from "./scale-object.js";
import { formatTime } from "./timestamps.js";
import { modifiedCause, updateObject } from "./update-object.js";

export async function applyScale(
  api: ApiContext,
  target: Target,
  config: KubeObject,
  owner: { manager: string; force: boolean },
  options: Pick<WriteOptions, "dryRun" | "request">,
): Promise<KubeObject> {
  const record = scaleRecord(target);
  const name = target.name as string;
  const parentTarget = { ...target, subresource: undefined };
  const path = replicasPath(record.scale.specReplicasPath);
  const requested = objectMeta(config).resourceVersion;
  const pinned = typeof requested === "string" && requested !== "";
  for (;;) {
    const parent = (await getObject(api, parentTarget)).object;
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
      time: formatTime(api.now()),
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
      const { object } = await updateObject(api, parentTarget, next, { ...options, applied: true });
      return scaleOf(object, record);
    } catch (error) {
      if (!isConflict(error) || pinned) throw error;
    }
  }
}
