// kube's deprecated AlwaysAdmit plugin: it admits everything, so enabling it changes nothing; it exists so
// that a kube-apiserver command line naming it starts kapi too.
import type { AdmissionPlugin } from "./admission.js";

export function alwaysAdmit(): AdmissionPlugin {
  return { name: "AlwaysAdmit" };
}
