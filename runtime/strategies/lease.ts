// Leases (coordination.k8s.io/v1): durations and transitions, the coordinated-leader strategy, and a PUT
// that creates a missing lease, as leader election expects.
import { type FieldError, forbidden, invalid, notSupported } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { qualifiedNameErrors } from "../selection/label-validation.js";
import { asObject } from "../validation/walk.js";

const leaseStrategies = ["OldestEmulationVersion"];

/** ValidateCoordinatedLeaseStrategy: one of kube's names, or a domain-prefixed one. */
function validateStrategy(value: string): FieldError[] {
  // kube names the field twice in this path.
  const path = "spec.strategy.strategy";
  if (!value.includes("/")) return leaseStrategies.includes(value) ? [] : [notSupported(path, value, leaseStrategies)];
  return qualifiedNameErrors(value).map((msg) => invalid(path, value, msg));
}

function validateLease(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec) ?? {};
  const errs: FieldError[] = [];
  const duration = spec.leaseDurationSeconds;
  if (typeof duration === "number" && duration <= 0) {
    errs.push(invalid("spec.leaseDurationSeconds", duration, "must be greater than 0"));
  }
  const transitions = spec.leaseTransitions;
  if (typeof transitions === "number" && transitions < 0) {
    errs.push(invalid("spec.leaseTransitions", transitions, "must be greater than or equal to 0"));
  }
  const strategy = typeof spec.strategy === "string" ? spec.strategy : "";
  if (typeof spec.strategy === "string") errs.push(...validateStrategy(spec.strategy));
  if (typeof spec.preferredHolder === "string" && spec.preferredHolder !== "" && strategy === "") {
    errs.push(forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined"));
  }
  return errs;
}

export const strategy: Strategy = {
  validate: validateLease,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
};
