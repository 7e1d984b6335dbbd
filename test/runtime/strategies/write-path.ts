// The steps of a write that involve a kind's strategy, as the resource handlers run them: generated
// defaults, the strategy's defaults, its prepare hook, then the generated validators and the strategy's
// rules, with every error formatted as kube prints it. Kinds are looked up in the generated registry, so
// a test also checks the overlay names the module.
import { kinds } from "../../../generated/registry.js";
import { strategies } from "../../../generated/strategies.js";
import { validation, validationKey } from "../../../generated/validation.js";
import { formatFieldError } from "../../../runtime/errors/format-field-error.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { byGroupVersionKind } from "../../../runtime/registry/lookup.js";
import type { KindStrategy } from "../../../runtime/strategies/hook-request.js";

export type Kind = readonly [group: string, version: string, kind: string];

export function strategyOf([group, version, kind]: Kind): KindStrategy {
  const name = byGroupVersionKind(kinds, group, version, kind)?.strategy;
  const strategy = name === undefined ? undefined : strategies[name];
  if (strategy === undefined) throw new Error(`${kind} names no strategy`);
  return strategy;
}

/** Status of a kind with a status subresource is the server's: a write of the main resource drops it. */
function hasStatus([group, version, kind]: Kind): boolean {
  const record = byGroupVersionKind(kinds, group, version, kind);
  return record?.resource?.subresources.some((s) => s.name === "status") ?? false;
}

export function defaulted(k: Kind, obj: KubeObject): KubeObject {
  validation[validationKey(...k)]?.default(obj);
  strategyOf(k).default?.(obj);
  return obj;
}

function errors(k: Kind, obj: KubeObject, old?: KubeObject, subresource?: string): string[] {
  const generated = validation[validationKey(...k)]?.validate(obj) ?? [];
  const own = strategyOf(k).validate?.(obj, old, subresource) ?? [];
  return [...generated, ...own].map(formatFieldError);
}

/** The object as a create stores it. */
export function created(k: Kind, obj: KubeObject): KubeObject {
  defaulted(k, obj);
  if (hasStatus(k)) delete obj.status;
  strategyOf(k).prepareForCreate?.(obj);
  return obj;
}

export function createErrors(k: Kind, obj: KubeObject): string[] {
  return errors(k, created(k, obj));
}

/** The new object of an update, prepared against the stored one. */
export function updated(k: Kind, obj: KubeObject, old: KubeObject, subresource?: string): KubeObject {
  defaulted(k, obj);
  if (subresource === undefined && hasStatus(k)) {
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
  }
  strategyOf(k).prepareForUpdate?.(obj, old, subresource);
  return obj;
}

export function updateErrors(k: Kind, obj: KubeObject, old: KubeObject, subresource?: string): string[] {
  return errors(k, updated(k, obj, old, subresource), old, subresource);
}

/** A workload whose selector picks its template's `app` label, with one container. */
export function workload(app: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: { name: app, namespace: "default" },
    spec: {
      selector: { matchLabels: { app } },
      template: { metadata: { labels: { app } }, spec: { containers: [{ name: app, image: app }] } },
      ...spec,
    },
  };
}
