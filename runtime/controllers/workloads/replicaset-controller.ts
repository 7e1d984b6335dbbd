// kube-controller-manager's replicaset-controller: ReplicaSets (apps/v1) through the shared replica sync.
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { LabelSelectorObject } from "../../selection/label-selector-object.js";
import type { ControllerContext } from "../controller-context.js";
import { ReplicaSetSync } from "./replica-set-sync.js";

export const replicaSets = builtinKind("apps", "v1", "replicasets");

export function replicaSetController(api: ResourceApi, context: ControllerContext): ReplicaSetSync {
  return new ReplicaSetSync(
    api,
    {
      served: replicaSets,
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      component: "replicaset-controller",
      selector: (spec) => spec.selector as LabelSelectorObject | null | undefined,
      countsTerminating: true,
    },
    context,
  );
}
