// component-base's ValidateLeaderElectionConfiguration (kube-scheduler is the component that runs it): with
// leader election on, positive durations, a lease longer than the renew deadline (kube reports the renew
// deadline as the bad value), and a lock type, namespace and name.
import { type FieldError, invalid, required } from "../errors/field-error.js";
import { child } from "../errors/field-path.js";
import { goDurationError, parseGoDuration } from "../object/go-duration.js";

type Json = Record<string, unknown>;

function nanos(value: unknown): bigint {
  return typeof value === "string" && goDurationError(value) === undefined ? parseGoDuration(value) : 0n;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Durations print as the defaulted object holds them: Go's Duration.String(). */
export function validateLeaderElection(election: Json, path: string): FieldError[] {
  if (election.leaderElect !== true) return [];
  const errs: FieldError[] = [];
  const shown = (field: string) => (typeof election[field] === "string" ? election[field] : "0s");
  for (const field of ["leaseDuration", "renewDeadline", "retryPeriod"]) {
    if (nanos(election[field]) <= 0n) errs.push(invalid(child(path, field), shown(field), "must be greater than zero"));
  }
  if (nanos(election.leaseDuration) <= nanos(election.renewDeadline)) {
    errs.push(invalid(child(path, "leaseDuration"), shown("renewDeadline"), "must be greater than `RenewDeadline`"));
  }
  for (const field of ["resourceLock", "resourceNamespace", "resourceName"]) {
    if (text(election[field]) === "") errs.push(required(child(path, field), ""));
  }
  return errs;
}
