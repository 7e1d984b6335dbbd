// Certificate signing requests, cluster trust bundles and pod certificate requests.
import type { JsonObject } from "../object/json-object.js";
import { at, formatLabels, int, objects, str } from "./fields.js";
import type { PrinterCells } from "./printer-cell.js";
import { humanDuration } from "./time.js";

function condition(csr: JsonObject): string {
  const types = new Set(objects(at(csr, "status", "conditions")).map((c) => str(c.type)));
  let status = types.has("Denied") ? "Denied" : types.has("Approved") ? "Approved" : "Pending";
  if (types.has("Failed")) status += ",Failed";
  if (str(at(csr, "status", "certificate")) !== "") status += ",Issued";
  return status;
}

function podCertificateState(pcr: JsonObject): string {
  let state = "Pending";
  for (const c of objects(at(pcr, "status", "conditions"))) {
    if (c.type === "Issued" || c.type === "Denied" || c.type === "Failed") state = str(c.type);
  }
  return state;
}

export const cells = {
  signerName: (o) => str(at(o, "spec", "signerName")) || "<none>",
  requestor: (csr) => str(at(csr, "spec", "username")),
  requestedDuration: (csr) => {
    const seconds = at(csr, "spec", "expirationSeconds");
    return typeof seconds === "number" ? humanDuration(int(seconds) * 1000) : "<none>";
  },
  condition,
  podName: (o) => str(at(o, "spec", "podName")),
  serviceAccount: (o) => str(at(o, "spec", "serviceAccountName")),
  nodeName: (o) => str(at(o, "spec", "nodeName")),
  rawSignerName: (o) => str(at(o, "spec", "signerName")),
  podCertificateState,
  userAnnotations: (o) => formatLabels(at(o, "spec", "unverifiedUserAnnotations")),
} satisfies PrinterCells;
