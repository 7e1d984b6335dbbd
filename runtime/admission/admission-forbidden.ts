// kube's admission.NewForbidden: a plugin's refusal as 403 Forbidden on the request's resource and name.
import { forbidden, type StatusError } from "../errors/status-error.js";
import { groupResource } from "../registry/kinds.js";
import type { AdmissionAttributes } from "./admission.js";

/** The name a refusal gives: the request's, else the object's name or generateName, else "Unknown". */
export function admissionName(a: AdmissionAttributes): string {
  if (a.name !== "") return a.name;
  const meta = a.object?.metadata as { name?: string; generateName?: string } | undefined;
  if (meta?.name) return meta.name;
  if (meta?.generateName) return meta.generateName;
  return "Unknown";
}

export function admissionForbidden(a: AdmissionAttributes, why: string): StatusError {
  return forbidden(groupResource(a.kind), admissionName(a), why);
}
