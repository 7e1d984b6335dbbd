// kube-apiserver's DefaultTolerationSeconds admission: every pod written (create or update) that does not
// tolerate the node-not-ready and node-unreachable NoExecute taints gets tolerations for them, for the
// seconds `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds` say.
import type { JsonObject } from "../../object/json-object.js";
import type { AdmissionPlugin } from "../admission.js";
import { podOf, specOf, stringField } from "./pod-write.js";
import { tolerationsOf } from "./tolerations.js";

export const defaultTolerationSecondsPluginName = "DefaultTolerationSeconds";

export const notReadyTaint = "node.kubernetes.io/not-ready";
export const unreachableTaint = "node.kubernetes.io/unreachable";

/** The two flags; kube's default for both is 300. */
export interface DefaultTolerationSeconds {
  notReady: number;
  unreachable: number;
}

export const defaultTolerationSecondsDefaults: DefaultTolerationSeconds = { notReady: 300, unreachable: 300 };

/** A toleration with an empty key or effect matches that taint too. */
function tolerates(t: JsonObject, taint: string): boolean {
  const key = stringField(t, "key");
  const effect = stringField(t, "effect");
  return (key === taint || key === "") && (effect === "NoExecute" || effect === "");
}

function toleration(taint: string, seconds: number): JsonObject {
  return { key: taint, operator: "Exists", effect: "NoExecute", tolerationSeconds: seconds };
}

export function defaultTolerationSeconds(
  seconds: DefaultTolerationSeconds = defaultTolerationSecondsDefaults,
): AdmissionPlugin {
  return {
    name: defaultTolerationSecondsPluginName,
    mutate(a) {
      if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
      const pod = podOf(a);
      if (pod === undefined) return;
      const spec = specOf(pod);
      const current = tolerationsOf(spec);
      const added: JsonObject[] = [];
      if (!current.some((t) => tolerates(t, notReadyTaint))) added.push(toleration(notReadyTaint, seconds.notReady));
      if (!current.some((t) => tolerates(t, unreachableTaint))) {
        added.push(toleration(unreachableTaint, seconds.unreachable));
      }
      if (added.length > 0) spec.tolerations = [...(Array.isArray(spec.tolerations) ? spec.tolerations : []), ...added];
    },
  };
}
