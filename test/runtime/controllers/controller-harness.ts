// A ResourceApi over a MemoryStore with namespace lifecycle admission and the in-server controllers, plus
// the polling the controller tests assert with: a condition must hold before a deadline.

import { kinds } from "../../../generated/registry.js";
import { namespaceLifecycle } from "../../../runtime/admission/namespace-lifecycle.js";
import { type ControllerSwitches, startControllers } from "../../../runtime/controllers/start-controllers.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { kindReference } from "../../../runtime/registry/kinds.js";
import { byGroupVersionKind } from "../../../runtime/registry/lookup.js";
import type { ResourceKindRecord, ServedKind } from "../../../runtime/registry/served-kind.js";
import { ResourceApi } from "../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../builtin-kinds.js";

export function kind(group: string, version: string, name: string): ServedKind {
  const found = byGroupVersionKind(kinds, group, version, name);
  if (found?.resource === undefined) throw new Error(`no served kind ${group}/${version} ${name}`);
  return kindReference(found as ResourceKindRecord);
}

export const namespaceKind = kind("", "v1", "Namespace");
export const configMapKind = kind("", "v1", "ConfigMap");
export const serviceAccountKind = kind("", "v1", "ServiceAccount");

export interface Harness {
  api: ResourceApi;
  errors: unknown[];
  close(): Promise<void>;
}

export async function startHarness(options: { enabled?: ControllerSwitches; caCert?: string } = {}): Promise<Harness> {
  const store = new MemoryStore();
  const api = new ResourceApi({ kinds: builtinKinds(), store });
  api.addAdmission(namespaceLifecycle(api));
  const errors: unknown[] = [];
  const controllers = startControllers(api, {
    log: (message, error) => errors.push({ message, error }),
    ...(options.enabled === undefined ? {} : { enabled: options.enabled }),
    ...(options.caCert === undefined ? {} : { caCert: options.caCert }),
  });
  await controllers.ready;
  return {
    api,
    errors,
    async close() {
      await controllers.stop();
      api.close();
      await store.close();
    },
  };
}

/** Polls `check` until it stops throwing; rethrows its last failure after the deadline. */
export async function eventually<T>(check: () => Promise<T> | T, deadlineMs = 5000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** The object, or undefined when the API answers 404. */
export async function find(api: ResourceApi, target: { kind: ServedKind; namespace?: string; name: string }) {
  try {
    return (await api.get(target)).object;
  } catch (error) {
    if (error instanceof StatusError && error.code === 404) return undefined;
    throw error;
  }
}

export async function failure(promise: Promise<unknown>): Promise<StatusError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error("expected a StatusError");
}

export function metadata(obj: KubeObject | undefined): Record<string, unknown> {
  return (obj?.metadata ?? {}) as Record<string, unknown>;
}
