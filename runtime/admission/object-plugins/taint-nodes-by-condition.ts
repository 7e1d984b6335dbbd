// kube's TaintNodesByCondition admission: a Node is created with the taint node.kubernetes.io/not-ready
// (NoSchedule) unless it has a taint of that key and effect already; the node lifecycle controller lifts it
// once the node reports Ready.
import type { AdmissionPlugin } from "../admission.js";
import { isMainResource } from "./resource-match.js";

interface Taint {
  key?: string;
  value?: string;
  effect?: string;
}

const notReadyTaint = { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" };

export function taintNodesByCondition(): AdmissionPlugin {
  return {
    name: "TaintNodesByCondition",
    mutate(a) {
      if (a.operation !== "CREATE" || !isMainResource(a, "", "nodes") || a.object === undefined) return;
      const spec = (a.object.spec ?? {}) as { taints?: Taint[] };
      const taints = spec.taints ?? [];
      // kube's MatchTaint: the key and the effect, whatever the value.
      if (taints.some((t) => t.key === notReadyTaint.key && t.effect === notReadyTaint.effect)) return;
      a.object.spec = { ...spec, taints: [...taints, { ...notReadyTaint }] };
    },
  };
}
