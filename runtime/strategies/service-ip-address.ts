// IPAddresses (networking.k8s.io), the records of cluster IPs in use: named by their address in canonical
// form, pointing at their owner through a parentRef that never changes (kube's ipaddress strategy).
import { type FieldError, invalid, required } from "../errors/field-error.js";
import { GoStruct } from "../errors/go-format.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { ipMessages } from "../service-network/ip-validation.js";
import { fieldImmutable, semanticEqual } from "../validation/field-rules.js";
import { dnsSubdomainErrors, pathSegmentErrors } from "../validation/name-formats.js";
import { asObject, type JsonObject } from "../validation/walk.js";

const path = "spec.parentRef";

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function parentRefOf(obj: KubeObject): JsonObject | undefined {
  return asObject(asObject(obj.spec)?.parentRef);
}

/** kube's validateIPAddressParentReference. */
function parentRefErrors(ref: JsonObject | undefined): FieldError[] {
  if (ref === undefined) return [required(path)];
  const errs: FieldError[] = [];
  const group = text(ref.group);
  if (group !== "") errs.push(...dnsSubdomainErrors(group).map((m) => invalid(`${path}.group`, group, m)));
  for (const field of ["resource", "name"]) {
    const value = text(ref[field]);
    if (value === "") errs.push(required(`${path}.${field}`));
    else errs.push(...pathSegmentErrors(value).map((m) => invalid(`${path}.${field}`, value, m)));
  }
  const namespace = text(ref.namespace);
  if (namespace !== "") {
    errs.push(...pathSegmentErrors(namespace).map((m) => invalid(`${path}.namespace`, namespace, m)));
  }
  return errs;
}

/** The reference as Go prints the ParentReference struct in an immutability error. */
function goParentRef(ref: JsonObject | undefined): unknown {
  if (ref === undefined) return null;
  const fields = { Group: text(ref.group), Resource: text(ref.resource), Namespace: text(ref.namespace) };
  return new GoStruct({ ...fields, Name: text(ref.name) });
}

export const strategy: Strategy = {
  validateName(name: string): string[] {
    return ipMessages(name);
  },
  validate(obj: KubeObject, old?: KubeObject): FieldError[] {
    if (old === undefined) return parentRefErrors(parentRefOf(obj));
    const ref = parentRefOf(obj);
    return semanticEqual(ref, parentRefOf(old)) ? [] : [invalid(path, goParentRef(ref), fieldImmutable)];
  },
};
