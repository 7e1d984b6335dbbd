// kube-apiserver's post-start hooks as kapi has them: the start-up steps that run once the server serves,
// each shown on /livez, /readyz and /healthz as `poststarthook/<name>`, failing ("not finished") until the
// step is done. A step is registered with the promise that resolves when it is done, in one line:
//
//   hooks.register("rbac/bootstrap-roles", seeded);
//
// Only kube's hook names are accepted, and the checks list them in kube-apiserver v1.36's order whatever
// the order they were registered in.

import type { HealthCheck } from "./endpoints/health.js";

/** kube-apiserver v1.36's post-start hooks in the order its health endpoints list them. */
export const kubePostStartHooks = [
  "start-apiserver-admission-initializer",
  "generic-apiserver-start-informers",
  "priority-and-fairness-config-consumer",
  "priority-and-fairness-filter",
  "storage-object-count-tracker-hook",
  "start-apiextensions-informers",
  "start-apiextensions-controllers",
  "crd-informer-synced",
  "start-system-namespaces-controller",
  "peer-endpoint-reconciler-controller",
  "start-cluster-authentication-info-controller",
  "start-kube-apiserver-identity-lease-controller",
  "start-kube-apiserver-identity-lease-garbage-collector",
  "storage-readiness",
  "start-legacy-token-tracking-controller",
  "start-service-ip-repair-controllers",
  "rbac/bootstrap-roles",
  "scheduling/bootstrap-system-priority-classes",
  "priority-and-fairness-config-producer",
  "bootstrap-controller",
  "start-kubernetes-service-cidr-controller",
  "start-kube-aggregator-informers",
  "apiservice-status-local-available-controller",
  "apiservice-status-remote-available-controller",
  "apiservice-registration-controller",
  "apiservice-wait-for-first-sync",
  "apiservice-discovery-controller",
  "kube-apiserver-autoregistration",
  "apiservice-openapi-controller",
  "apiservice-openapiv3-controller",
] as const;

const hookOrder: ReadonlyMap<string, number> = new Map(kubePostStartHooks.map((name, i) => [name, i]));

interface Hook {
  name: string;
  done: boolean;
  settled: Promise<void>;
}

export class PostStartHooks {
  private readonly hooks: Hook[] = [];

  constructor(private readonly log: (message: string, error: unknown) => void) {}

  /**
   * Adds the step `name`, done once `done` resolves. A step that rejects stays not finished and is logged
   * (kube-apiserver exits instead). Registering a name twice, or a name kube does not have, is a bug.
   */
  register(name: string, done: Promise<unknown>): void {
    const order = hookOrder.get(name);
    if (order === undefined) throw new Error(`${name} is not a kube-apiserver post-start hook`);
    if (this.hooks.some((h) => h.name === name)) throw new Error(`post-start hook ${name} is registered twice`);
    const hook: Hook = {
      name,
      done: false,
      settled: done.then(
        () => {
          hook.done = true;
        },
        (error: unknown) => this.log(`post-start hook ${name} failed`, error),
      ),
    };
    const at = this.hooks.findIndex((h) => (hookOrder.get(h.name) ?? 0) > order);
    this.hooks.splice(at < 0 ? this.hooks.length : at, 0, hook);
  }

  /** One health check per registered step, in kube's order. */
  checks(): HealthCheck[] {
    return this.hooks.map((hook) => ({
      name: `poststarthook/${hook.name}`,
      check() {
        if (!hook.done) throw new Error("not finished");
      },
    }));
  }

  /** Resolves once every step registered so far has succeeded or failed. */
  async settled(): Promise<void> {
    await Promise.all(this.hooks.map((h) => h.settled));
  }
}
