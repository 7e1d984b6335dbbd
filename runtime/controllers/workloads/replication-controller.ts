// kube-controller-manager's replicationcontroller-controller: ReplicationControllers (v1), whose map
// selector is a ReplicaSet's matchLabels, through the shared replica sync.
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { ControllerContext } from "../controller-context.js";
import { ReplicaSetSync } from "./replica-set-sync.js";

const replicationControllers = builtinKind("", "v1", "replicationcontrollers");

export function replicationController(api: ResourceApi, context: ControllerContext): ReplicaSetSync {
  return new ReplicaSetSync(
    api,
    {
      served: replicationControllers,
      apiVersion: "v1",
      kind: "ReplicationController",
      component: "replication-controller",
      selector: (spec) => {
        const labels = spec.selector as Record<string, string> | undefined;
        return labels === undefined ? undefined : { matchLabels: labels };
      },
      countsTerminating: false,
    },
    context,
  );
}
