// kube-apiserver's post-start hooks as kapi has them: the start-up steps that run once the server serves,
// each shown on /livez, /readyz and /healthz as `poststarthook/<name>`, failing ("not finished") until the
// step is done. A step is registered with the promise that resolves when it is done, in one line:
//
//   hooks.register("rbac/bootstrap-roles", seeded);
//
// Only kube's hook names are accepted, and the checks list them in kube-apiserver v1.36's order whatever
// the order they were registered in. kube's other boot-sequence checks (autoregister-completion) are listed
// among them, where kube lists them.

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

/** kube-apiserver v1.36's boot-sequence checks that are not hooks, by the hook they follow on the health endpoints. */
const bootSequenceChecks: ReadonlyMap<string, (typeof kubePostStartHooks)[number]> = new Map([
  ["autoregister-completion", "kube-apiserver-autoregistration"],
]);

const checkOrder: ReadonlyMap<string, number> = new Map([
  ...kubePostStartHooks.map((name, i): [string, number] => [`poststarthook/${name}`, i]),
  ...[...bootSequenceChecks].map(([name, after]): [string, number] => [name, kubePostStartHooks.indexOf(after) + 0.5]),
]);

interface Entry {
  check: HealthCheck;
  settled: Promise<void>;
}

export class PostStartHooks {
  private readonly entries: Entry[] = [];

  constructor(private readonly log: (message: string, error: unknown) => void) {}

  /**
   * Adds the step `name`, done once `done` resolves. A step that rejects stays not finished and is logged
   * (kube-apiserver exits instead). Registering a name twice, or a name kube does not have, is a bug.
   */
  register(name: string, done: Promise<unknown>): void {
    if (!(kubePostStartHooks as readonly string[]).includes(name)) {
      throw new Error(`${name} is not a kube-apiserver post-start hook`);
    }
    let finished = false;
    const settled = done.then(
      () => {
        finished = true;
      },
      (error: unknown) => this.log(`post-start hook ${name} failed`, error),
    );
    const check = {
      name: `poststarthook/${name}`,
      check() {
        if (!finished) throw new Error("not finished");
      },
    };
    this.insert({ check, settled });
  }

  /**
   * Adds one of kube's boot-sequence checks that are not hooks (`autoregister-completion`), run as it is;
   * the server counts as started once `passed` resolves.
   */
  addCheck(check: HealthCheck, passed: Promise<void>): void {
    if (!bootSequenceChecks.has(check.name))
      throw new Error(`${check.name} is not a kube-apiserver boot-sequence check`);
    this.insert({ check, settled: passed });
  }

  private insert(entry: Entry): void {
    const name = entry.check.name;
    const order = checkOrder.get(name) ?? 0;
    if (this.entries.some((e) => e.check.name === name)) throw new Error(`${name} is registered twice`);
    const at = this.entries.findIndex((e) => (checkOrder.get(e.check.name) ?? 0) > order);
    this.entries.splice(at < 0 ? this.entries.length : at, 0, entry);
  }

  /** One health check per registered step and boot-sequence check, in kube's order. */
  checks(): HealthCheck[] {
    return this.entries.map((entry) => entry.check);
  }

  /** Resolves once every step registered so far has succeeded or failed. */
  async settled(): Promise<void> {
    await Promise.all(this.entries.map((e) => e.settled));
  }
}
