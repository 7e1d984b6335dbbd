// kube-apiserver's APIService autoregistration (kube-aggregator's autoregister controller, fed by the server's
// own group/versions and by kube's CRD registration controller):
// - every built-in group/version the server serves and kube's priority table names gets an APIService labelled
//   `kube-aggregator.kubernetes.io/automanaged: onstart`. Such APIServices are synced once, at start: made when
//   missing, their spec put back when it differs, removed when their group/version is no longer served (turned
//   off with --runtime-config). Afterwards they are the cluster's to change or delete, as kube leaves them.
// - every served version of a CustomResourceDefinition gets one labelled `automanaged: true`, kept as long as
//   the server runs: made again when deleted, its spec put back when edited, removed once no definition serves
//   the version.
// APIServices without the label are never touched. The initial definitions are read before the first sync, so
// that it does not remove the APIServices of custom resources that still exist.
// `autoregister-completion` (a health check) passes once every built-in APIService was seen Available.

import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../object/kube-object.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { statusCode, statusReason } from "./api-errors.js";
import {
  type ApiServiceSpec,
  apiServiceName,
  customGroupPriorityMinimum,
  customVersionPriority,
} from "./apiservice-priorities.js";
import type { ControllerContext } from "./controller-context.js";
import { followObjects } from "./follow-objects.js";
import { watchLoopBackoff } from "./watch-loop-backoff.js";
import { WorkQueue } from "./work-queue.js";

export const automanagedLabel = "kube-aggregator.kubernetes.io/automanaged";
const onStart = "onstart";
const continuously = "true";

export interface ApiServiceShape {
  metadata?: { name?: string; uid?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown> & { service?: unknown };
  status?: { conditions?: { type?: string; status?: string }[] };
}

interface CrdShape {
  metadata?: { name?: string };
  spec?: { group?: string; versions?: { name?: string; served?: boolean }[] };
}

/** A health check as the server's endpoints run it: throws while failing. */
export interface NamedCheck {
  name: string;
  check(): void;
}

/** A boot-sequence check, and when it first passes (or its controller stopped first). */
export interface BootSequenceCheck {
  check: NamedCheck;
  passed: Promise<void>;
}

interface Desired {
  spec: ApiServiceSpec;
  mode: typeof onStart | typeof continuously;
}

/** The spec as stored: the core group's empty group is left out, as kube's omitempty leaves it. */
function storedSpec(spec: ApiServiceSpec): Record<string, unknown> {
  const { group, ...rest } = spec;
  return group === "" ? { ...rest } : { group, ...rest };
}

function apiServiceObject(name: string, desired: Desired): KubeObject {
  return {
    apiVersion: "apiregistration.k8s.io/v1",
    kind: "APIService",
    metadata: { name, labels: { [automanagedLabel]: desired.mode } },
    spec: storedSpec(desired.spec),
  };
}

export function isAvailable(apiService: ApiServiceShape): boolean {
  return (apiService.status?.conditions ?? []).some((c) => c.type === "Available" && c.status === "True");
}

export class ApiServiceAutoregistration {
  private readonly apiServices;
  private readonly definitions;
  private readonly desired = new Map<string, Desired>();
  /** The served custom group/versions of each definition, by APIService name. */
  private readonly definitionVersions = new Map<string, Set<string>>();
  /** Automanaged `onstart` APIServices that existed when the controller started. */
  private readonly atStart = new Set<string>();
  private readonly synced = new Set<string>();
  private readonly awaitingAvailable: Set<string>;
  private readonly queue: WorkQueue<string>;
  /** `autoregister-completion`: every built-in APIService has been seen Available at least once. */
  readonly completion: BootSequenceCheck;
  private allAvailable: () => void = () => {};

  /** `builtin`: the APIServices of the built-in group/versions the server serves. */
  constructor(
    private readonly api: ResourceApi,
    builtin: readonly ApiServiceSpec[],
    private readonly options: ControllerContext,
  ) {
    const kind = api.kinds.servedKind("apiregistration.k8s.io", "v1", "apiservices");
    if (kind === undefined) throw new Error("apiregistration.k8s.io/v1 is not served");
    this.apiServices = kind;
    this.definitions = api.kinds.servedKind("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    for (const spec of builtin) this.desired.set(apiServiceName(spec.group, spec.version), { spec, mode: onStart });
    this.awaitingAvailable = new Set(this.desired.keys());
    const passed = new Promise<void>((resolve) => {
      this.allAvailable = resolve;
      options.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    this.completion = {
      check: {
        name: "autoregister-completion",
        check: () => {
          if (this.awaitingAvailable.size > 0) {
            throw new Error(`missing APIService: [${[...this.awaitingAvailable].sort().join(" ")}]`);
          }
        },
      },
      passed,
    };
    if (this.awaitingAvailable.size === 0) this.allAvailable();
    // Five workers, as kube-apiserver runs this controller.
    this.queue = new WorkQueue((name) => this.sync(name), {
      name: "autoregister controller",
      log: options.log,
      workers: 5,
    });
  }

  async run(): Promise<void> {
    const definitions = this.definitions;
    if (definitions !== undefined) {
      const listed = await this.listUntilDone(() => this.api.list({ kind: definitions }));
      if (listed === undefined) return;
      for (const item of listed.items) this.onDefinition(item.object as CrdShape, false);
    }
    const present = await this.listUntilDone(() => this.api.list({ kind: this.apiServices }));
    if (present === undefined) return;
    for (const item of present.items) {
      const apiService = item.object as ApiServiceShape;
      const name = String(apiService.metadata?.name);
      if (apiService.metadata?.labels?.[automanagedLabel] === onStart) this.atStart.add(name);
      this.queue.add(name);
    }
    for (const name of this.desired.keys()) this.queue.add(name);
    const follow = { ...this.options, name: "autoregister controller" };
    await Promise.all([
      followObjects(
        this.api,
        { kind: this.apiServices },
        (event) => {
          const apiService = event.object as ApiServiceShape;
          const name = String(apiService.metadata?.name);
          if (event.type !== "DELETED" && isAvailable(apiService) && this.awaitingAvailable.delete(name)) {
            if (this.awaitingAvailable.size === 0) this.allAvailable();
          }
          this.queue.add(name);
        },
        follow,
      ),
      definitions === undefined
        ? undefined
        : followObjects(
            this.api,
            { kind: definitions },
            (event) => this.onDefinition(event.object as CrdShape, event.type === "DELETED"),
            { ...follow, name: "crd autoregistration controller" },
          ),
    ]);
    await this.queue.stop();
  }

  /** Lists until a list succeeds; undefined once stopped. */
  private async listUntilDone<T>(list: () => Promise<T>): Promise<T | undefined> {
    const backoff = watchLoopBackoff();
    while (!this.options.signal.aborted) {
      try {
        return await list();
      } catch (error) {
        this.options.log("autoregister controller: listing failed", error);
        await backoff.wait(this.options.signal);
      }
    }
    return undefined;
  }

  /** kube's CRD registration: the definition's served versions, unless a built-in group/version has them. */
  private onDefinition(definition: CrdShape, deleted: boolean): void {
    const key = String(definition.metadata?.name);
    const before = this.definitionVersions.get(key) ?? new Set<string>();
    const now = new Map<string, ApiServiceSpec>();
    const group = definition.spec?.group ?? "";
    if (!deleted) {
      for (const version of definition.spec?.versions ?? []) {
        const name = version.name ?? "";
        if (version.served !== true || name === "" || this.api.kinds.servesBuiltin(group, name)) continue;
        now.set(apiServiceName(group, name), {
          group,
          version: name,
          groupPriorityMinimum: customGroupPriorityMinimum,
          versionPriority: customVersionPriority,
        });
      }
    }
    this.definitionVersions.set(key, new Set(now.keys()));
    if (deleted) this.definitionVersions.delete(key);
    for (const [name, spec] of now) {
      if (this.desired.get(name)?.mode !== onStart) this.desired.set(name, { spec, mode: continuously });
    }
    for (const name of before) {
      if (now.has(name) || this.desired.get(name)?.mode !== continuously) continue;
      const stillServed = [...this.definitionVersions.values()].some((names) => names.has(name));
      if (!stillServed) this.desired.delete(name);
    }
    for (const name of new Set([...before, ...now.keys()])) this.queue.add(name);
  }

  private async sync(name: string): Promise<undefined> {
    const desired = this.desired.get(name);
    let current: ApiServiceShape | undefined;
    try {
      current = (await this.api.get({ kind: this.apiServices, name })).object as ApiServiceShape;
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
    }
    await this.reconcile(name, desired, current);
    this.synced.add(name);
    return undefined;
  }

  private async reconcile(name: string, desired: Desired | undefined, current: ApiServiceShape | undefined) {
    const hasSynced = this.synced.has(name);
    if (current === undefined) {
      if (desired === undefined || (desired.mode === onStart && hasSynced)) return;
      try {
        await this.api.create({ kind: this.apiServices }, apiServiceObject(name, desired));
      } catch (error) {
        // Made in the meantime: its event brings it back here.
        if (statusReason(error) !== "AlreadyExists") throw error;
      }
      return;
    }
    if (desired?.mode === onStart && hasSynced) return;
    const mode = current.metadata?.labels?.[automanagedLabel];
    if (mode !== onStart && mode !== continuously) return;
    if (mode === onStart && (!this.atStart.has(name) || hasSynced)) return;
    if (desired === undefined) {
      try {
        await this.api.delete(
          { kind: this.apiServices, name },
          { preconditions: { uid: String(current.metadata?.uid) } },
        );
      } catch (error) {
        const code = statusCode(error);
        if (code !== 404 && code !== 409) throw error;
      }
      return;
    }
    const spec = storedSpec(desired.spec);
    if (isDeepStrictEqual(current.spec, spec)) return;
    try {
      await this.api.update({ kind: this.apiServices, name }, { ...(current as KubeObject), spec });
    } catch (error) {
      const code = statusCode(error);
      if (code !== 404 && code !== 409) throw error;
    }
  }
}
