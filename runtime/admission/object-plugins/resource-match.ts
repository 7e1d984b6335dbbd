// Which requests kube's object plugins look at: the main resource of one group/resource, never a subresource.
import type { AdmissionAttributes } from "../admission.js";

export function isMainResource(a: AdmissionAttributes, group: string, plural: string): boolean {
  return a.kind.group === group && a.kind.resource.plural === plural && !a.subresource;
}
