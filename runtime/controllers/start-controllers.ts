// The controllers kapi runs inside the server, so that no controller manager is needed: each can be
// switched off (tests that want to watch raw deletion semantics turn off the garbage collector, for
// instance). Controllers never throw: failures are logged and retried with backoff until stop().
import type { ResourceApi } from "../resources/resource-api.js";
import { GarbageCollector } from "./garbage-collector.js";
import { NamespaceController } from "./namespace-controller.js";
import { RootCaPublisher } from "./root-ca-publisher.js";
import { ServiceAccountController } from "./service-account-controller.js";
import { SystemNamespaces } from "./system-namespaces.js";

/** Every controller runs unless set to false. */
export interface ControllerSwitches {
  /** default, kube-system, kube-public and kube-node-lease, created at start and when deleted. */
  systemNamespaces?: boolean;
  garbageCollector?: boolean;
  /** Namespace deletion: Terminating, content deleted, `kubernetes` finalizer removed. */
  namespaces?: boolean;
  /** The `default` ServiceAccount in each namespace. */
  serviceAccounts?: boolean;
  /** The `kube-root-ca.crt` ConfigMap in each namespace; runs only when a CA certificate is given. */
  rootCa?: boolean;
}

export interface StartControllersOptions {
  /** PEM of the CA that signed the serving certificate, published as `ca.crt`. */
  caCert?: string;
  log: (message: string, error: unknown) => void;
  enabled?: ControllerSwitches;
}

export interface RunningControllers {
  /** Resolves once the system namespaces were created (or failed to be, and are retried). */
  ready: Promise<void>;
  /** Stops every controller and waits for the work under way; call it before closing the ResourceApi. */
  stop(): Promise<void>;
}

export function startControllers(api: ResourceApi, options: StartControllersOptions): RunningControllers {
  const enabled = options.enabled ?? {};
  const on = (name: keyof ControllerSwitches) => enabled[name] !== false;
  const abort = new AbortController();
  const context = { signal: abort.signal, log: options.log };
  const runs: Promise<void>[] = [];
  const start = (name: string, run: () => Promise<void>) => {
    runs.push(run().catch((error: unknown) => options.log(`${name} stopped`, error)));
  };

  let ready = Promise.resolve();
  if (on("systemNamespaces")) {
    const system = new SystemNamespaces(api, context);
    ready = system.ensure();
    start("system namespaces", () => system.run());
  }
  if (on("garbageCollector")) {
    const gc = new GarbageCollector(api, context);
    start("garbage collector", () => gc.run());
  }
  if (on("namespaces")) {
    const namespaces = new NamespaceController(api, context);
    start("namespace controller", () => namespaces.run());
  }
  if (on("serviceAccounts")) {
    const serviceAccounts = new ServiceAccountController(api, context);
    start("service account controller", () => serviceAccounts.run());
  }
  if (on("rootCa") && options.caCert !== undefined) {
    const publisher = new RootCaPublisher(api, options.caCert, context);
    start("root CA certificate publisher", () => publisher.run());
  }

  return {
    ready,
    async stop() {
      abort.abort();
      await Promise.all(runs);
    },
  };
}
