// kube's DenyServiceExternalIPs admission: no Service may take an external IP it did not have before;
// keeping or dropping the ones it has is allowed.
import type { AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { isMainResource } from "./resource-match.js";

const externalIPsOf = (service: unknown) =>
  ((service as { spec?: { externalIPs?: string[] } } | undefined)?.spec?.externalIPs ?? []) as string[];

export function denyServiceExternalIPs(): AdmissionPlugin {
  return {
    name: "DenyServiceExternalIPs",
    validate(a) {
      if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
      if (!isMainResource(a, "", "services")) return;
      const before = new Set(externalIPsOf(a.oldObject));
      if (externalIPsOf(a.object).every((ip) => before.has(ip))) return;
      throw admissionForbidden(a, "Use of external IPs is denied by admission control");
    },
  };
}
