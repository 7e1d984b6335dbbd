// ServiceCIDRs (networking.k8s.io): kube's strategy keeps no generation and starts the status empty; its
// validation wants one or two ranges of different families in canonical form, and an update may only add
// a second range to a single one (a move to dual stack).
import { type FieldError, invalid, required } from "../errors/field-error.js";
import { GoStruct } from "../errors/go-format.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { familyOf } from "../service-network/ip-range.js";
import { cidrMessages } from "../service-network/ip-validation.js";
import { fieldImmutable } from "../validation/field-rules.js";
import { asObject, listItems } from "../validation/walk.js";

const path = "spec.cidrs";

function cidrsOf(obj: KubeObject): string[] {
  return listItems(asObject(obj.spec)?.cidrs).map((c) => (typeof c === "string" ? c : ""));
}

function familyOfCIDR(cidr: string): string | undefined {
  return familyOf(cidr.slice(0, cidr.indexOf("/") < 0 ? cidr.length : cidr.indexOf("/")));
}

/** kube's validateServiceCIDRSpec. */
function specErrors(cidrs: string[]): FieldError[] {
  if (cidrs.length === 0) return [required(path, "at least one CIDR required")];
  // kube prints the spec struct here.
  if (cidrs.length > 2) return [invalid(path, new GoStruct({ CIDRs: cidrs }), "may only hold up to 2 values")];
  const errs = cidrs.flatMap((cidr, i) => cidrMessages(cidr).map((msg) => invalid(`${path}[${i}]`, cidr, msg)));
  const [first, second] = cidrs.map(familyOfCIDR);
  if (cidrs.length === 2 && first !== undefined && first === second) {
    errs.push(
      invalid(path, cidrs, "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"),
    );
  }
  return errs;
}

/** kube's ValidateServiceCIDRUpdate, the metadata rules aside. */
function updateErrors(cidrs: string[], old: string[]): FieldError[] {
  if (cidrs.length === old.length) {
    return old.flatMap((cidr, i) => (cidr === cidrs[i] ? [] : [invalid(`${path}[${i}]`, cidrs[i], fieldImmutable)]));
  }
  if (old.length === 1 && cidrs.length === 2) {
    const errs = cidrs[0] === old[0] ? [] : [invalid(`${path}[0]`, cidrs[0], fieldImmutable)];
    return [...errs, ...specErrors(cidrs)];
  }
  return [invalid(path, cidrs, fieldImmutable)];
}

export const strategy: Strategy = {
  tracksGeneration: false,
  prepareForCreate(obj: KubeObject): void {
    obj.status = {};
  },
  validate(obj: KubeObject, old?: KubeObject, subresource?: string): FieldError[] {
    if (subresource === "status") return [];
    return old === undefined ? specErrors(cidrsOf(obj)) : updateErrors(cidrsOf(obj), cidrsOf(old));
  },
};
