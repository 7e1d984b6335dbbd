// kube's deprecated AlwaysDeny plugin: every write is refused, in both admission steps.
import type { AdmissionPlugin } from "./admission.js";
import { admissionForbidden } from "./admission-forbidden.js";

const why = "admission control is denying all modifications";

export function alwaysDeny(): AdmissionPlugin {
  return {
    name: "AlwaysDeny",
    mutate(a) {
      throw admissionForbidden(a, why);
    },
    validate(a) {
      throw admissionForbidden(a, why);
    },
  };
}
