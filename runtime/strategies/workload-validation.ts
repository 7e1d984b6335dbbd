// Rules kube-apiserver shares between the controllers that stamp out pods from a template (Deployment,
// ReplicaSet, StatefulSet, DaemonSet, ReplicationController, Job): the selector, the template's labels
// matching it, and what a controller's pods may not set.
import { type FieldError, forbidden, invalid, notSupported } from "../errors/field-error.js";
import { child } from "../errors/field-path.js";
import type { LabelSelector } from "../selection/label-selector.js";
import { labelSelectorFromObject, validateLabelSelector } from "../selection/label-selector-object.js";
import { asObject, type JsonObject } from "../validation/walk.js";
import { labelSelectorObject } from "./decoded-label-selector.js";

function strings(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(asObject(value) ?? {}).filter(([, v]) => typeof v === "string")) as Record<
    string,
    string
  >;
}

export interface SelectorCheck {
  errs: FieldError[];
  /** The selector as a matcher; undefined when it does not parse. */
  selector: LabelSelector | undefined;
}

/**
 * `spec.selector` of a workload: a valid label selector that selects something. `empty` and
 * `unparsable` are the kind's own messages (kube words them differently per kind); DaemonSets report
 * nothing more for a selector that does not parse (`unparsable` undefined).
 */
export function validateWorkloadSelector(spec: JsonObject, empty: string, unparsable?: string): SelectorCheck {
  const path = "spec.selector";
  const ps = labelSelectorObject(spec.selector);
  const errs = validateLabelSelector(ps, path);
  if (ps !== undefined && Object.keys(ps.matchLabels ?? {}).length + (ps.matchExpressions ?? []).length === 0) {
    errs.push(invalid(path, spec.selector, empty));
  }
  const parsed = labelSelectorFromObject(ps);
  if (parsed.ok) return { errs, selector: parsed.selector };
  if (unparsable !== undefined) errs.push(invalid(path, spec.selector, unparsable));
  return { errs, selector: undefined };
}

/** The selector of a ReplicationController: a plain label map that may not be empty. */
export function mapSelector(selector: unknown): LabelSelector | undefined {
  const parsed = labelSelectorFromObject({ matchLabels: strings(selector) });
  return parsed.ok ? parsed.selector : undefined;
}

/**
 * The template's labels must be selected. Most kinds skip the check for an empty selector (reported on
 * its own); DaemonSets check any selector that parses (`evenEmpty`).
 */
export function templateLabelsMatch(
  template: JsonObject | undefined,
  selector: LabelSelector | undefined,
  path: string,
  evenEmpty = false,
): FieldError[] {
  if (selector === undefined || (!evenEmpty && selector.isEmpty())) return [];
  const labels = asObject(asObject(template?.metadata)?.labels);
  if (selector.matches(strings(labels))) return [];
  return [
    invalid(child(child(path, "metadata"), "labels"), labels ?? null, "`selector` does not match template `labels`"),
  ];
}

/** Pods of a long-running controller restart always and have no deadline. `kind` names it in the message. */
export function controllerPodRules(template: JsonObject | undefined, path: string, kind: string): FieldError[] {
  const spec = asObject(template?.spec) ?? {};
  const specPath = child(path, "spec");
  const errs: FieldError[] = [];
  const restartPolicy = typeof spec.restartPolicy === "string" ? spec.restartPolicy : "";
  if (restartPolicy !== "Always") errs.push(notSupported(child(specPath, "restartPolicy"), restartPolicy, ["Always"]));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(forbidden(child(specPath, "activeDeadlineSeconds"), `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errs;
}

export function specOf(obj: JsonObject): JsonObject {
  return asObject(obj.spec) ?? {};
}
