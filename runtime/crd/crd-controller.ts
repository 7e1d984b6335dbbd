// The apiextensions server's controllers in one: for every CustomResourceDefinition, accept its names (kube's
// naming condition controller), say Established and serve its versions in the same turn of the event loop
// (kube lists a definition in discovery only once Established is written, and a client that waits for the
// condition finds the resource served, since no request is read in between), keep discovery and OpenAPI in step,
// and, once it is being deleted, delete every custom resource before letting the definition go (kube's
// finalizer controller, `customresourcecleanup.apiextensions.k8s.io`).

import { isDeepStrictEqual } from "node:util";
import type { CustomResourceDefinition } from "../../generated/apiextensions.k8s.io/v1/types.js";
import { statusCode } from "../controllers/api-errors.js";
import type { ControllerContext } from "../controllers/controller-context.js";
import { followObjects } from "../controllers/follow-objects.js";
import { updateWithRetry } from "../controllers/update-with-retry.js";
import { retryLater, WorkQueue } from "../controllers/work-queue.js";
import { type ServiceEndpointResolver, serviceEndpointResolver } from "../http/service-resolver.js";
import type { KubeObject } from "../object/kube-object.js";
import type { OpenApiDocuments } from "../openapi/openapi-documents.js";
import type { Schema } from "../openapi/schema-refs.js";
import type { ServedKind } from "../registry/served-kind.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { formatTime } from "../resources/timestamps.js";
import { cleanupFinalizer, setCondition } from "./cleanup-finalizer.js";
import { type CustomResource, customResource, type OpenApiDefinitions } from "./custom-kinds.js";
import { acceptNames, isConditionTrue } from "./names-acceptance.js";
import { scaleSchemas } from "./scale-schemas.js";

export interface CrdControllerOptions extends ControllerContext {
  openapi: OpenApiDocuments;
}

function nameOf(obj: KubeObject): string {
  return String((obj.metadata as { name?: unknown } | undefined)?.name ?? "");
}

export class CrdController {
  readonly #api: ResourceApi;
  readonly #options: CrdControllerOptions;
  readonly #queue: WorkQueue<string>;
  readonly #definitions = new Map<string, CustomResourceDefinition>();
  /** OpenAPI definitions each served definition contributes, by group/version. */
  readonly #openapi = new Map<string, Map<string, OpenApiDefinitions>>();
  /** What each served definition was last built from, and what it gave. */
  readonly #served = new Map<string, { key: string; resource: CustomResource }>();
  readonly #kind: ServedKind;
  /** Where conversion webhooks registered by service are reached, as admission webhooks are. */
  readonly #resolveService: ServiceEndpointResolver;

  constructor(api: ResourceApi, options: CrdControllerOptions) {
    this.#api = api;
    this.#options = options;
    this.#resolveService = serviceEndpointResolver(api);
    const kind = api.kinds.servedKind("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    if (kind === undefined) throw new Error("apiextensions.k8s.io/v1 is not served");
    this.#kind = kind;
    this.#queue = new WorkQueue((name) => this.#sync(name), {
      name: "customresourcedefinition controller",
      log: options.log,
      workers: 1,
      baseDelayMs: 20,
      maxDelayMs: 2000,
    });
  }

  /**
   * Serves the definitions already established (a server restarting on a kept store), so that their
   * resources answer from the first request; `run` then follows changes.
   */
  async restore(): Promise<void> {
    const { items } = await this.#api.list({ kind: this.#kind });
    for (const { object } of items) {
      const crd = object as unknown as CustomResourceDefinition;
      const name = nameOf(object);
      this.#definitions.set(name, crd);
      if (isConditionTrue(crd, "Established") && crd.metadata?.deletionTimestamp === undefined) {
        await this.#serve(name, crd);
      }
    }
  }

  async run(): Promise<void> {
    await followObjects(
      this.#api,
      { kind: this.#kind },
      (event) => {
        const crd = event.object as unknown as CustomResourceDefinition;
        const name = nameOf(event.object);
        if (event.type === "DELETED") this.#definitions.delete(name);
        else this.#definitions.set(name, crd);
        this.#queue.add(name);
        // Names a definition gives up may be what another of its group waits for.
        for (const [other, def] of this.#definitions) {
          if (other !== name && def.spec.group === crd.spec.group && !isConditionTrue(def, "NamesAccepted")) {
            this.#queue.add(other);
          }
        }
      },
      { ...this.#options, name: "customresourcedefinition controller" },
    );
    await this.#queue.stop();
  }

  async #sync(name: string): Promise<typeof retryLater | undefined> {
    let crd: CustomResourceDefinition;
    try {
      crd = (await this.#api.get({ kind: this.#kind, name })).object as unknown as CustomResourceDefinition;
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
      await this.#serve(name, undefined);
      return undefined;
    }
    if (crd.metadata?.deletionTimestamp !== undefined) return this.#finalize(crd);

    const naming = acceptNames(crd, this.#definitions.values());
    if (naming.established.status !== "True" && !isConditionTrue(crd, "Established"))
      await this.#serve(name, undefined);
    const now = formatTime(this.#api.context.now());
    await updateWithRetry(
      this.#api,
      { kind: this.#kind, name, subresource: "status" },
      (obj) => {
        const current = obj as unknown as CustomResourceDefinition;
        current.status ??= {};
        let changed = !isDeepStrictEqual(current.status.acceptedNames, naming.acceptedNames);
        current.status.acceptedNames = naming.acceptedNames;
        changed = setCondition(current, naming.namesAccepted, now) || changed;
        changed = setCondition(current, naming.established, now) || changed;
        return changed;
      },
      crd.metadata?.uid,
    );
    if (naming.established.status === "True")
      await this.#serve(name, { ...crd, status: { ...crd.status, acceptedNames: naming.acceptedNames } });
    return undefined;
  }

  /** Deletes every custom resource of a deleting definition, then drops the finalizer that holds it. */
  async #finalize(crd: CustomResourceDefinition): Promise<typeof retryLater | undefined> {
    const name = crd.metadata?.name ?? "";
    const uid = crd.metadata?.uid;
    if (!(crd.metadata?.finalizers ?? []).includes(cleanupFinalizer)) return undefined;
    const target = { kind: this.#kind, name, subresource: "status" };
    const terminating = (status: "True" | "False", reason: string, message: string) =>
      updateWithRetry(
        this.#api,
        target,
        (obj) =>
          setCondition(
            obj as unknown as CustomResourceDefinition,
            { type: "Terminating", status, reason, message },
            formatTime(this.#api.context.now()),
          ),
        uid,
      );
    const marked = await terminating("True", "InstanceDeletionInProgress", "CustomResource deletion is in progress");
    const current = (marked as unknown as CustomResourceDefinition | undefined) ?? crd;
    const accepted = current.status?.acceptedNames;
    if (accepted !== undefined) {
      // Served while its instances go (reads and deletes only), also after a restart.
      const served = await this.#serve(name, current);
      const stored = served?.kinds.find((k) => k.resource.storageVersion);
      if (stored !== undefined && (await this.#deleteInstances(stored)) > 0) return retryLater;
    }
    await terminating("False", "InstanceDeletionCompleted", "removed all instances");
    await this.#serve(name, undefined);
    await updateWithRetry(
      this.#api,
      { kind: this.#kind, name },
      (obj) => {
        const meta = obj.metadata as { finalizers?: string[] };
        if (!(meta.finalizers ?? []).includes(cleanupFinalizer)) return false;
        meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== cleanupFinalizer);
        return true;
      },
      uid,
    );
    return undefined;
  }

  /** Deletes what is stored; resolves to how many objects are left (held by finalizers). */
  async #deleteInstances(kind: ServedKind): Promise<number> {
    const { items } = await this.#api.list({ kind });
    for (const { object } of items) {
      const meta = object.metadata as { name: string; namespace?: string; deletionTimestamp?: string };
      if (meta.deletionTimestamp !== undefined) continue;
      try {
        await this.#api.delete({ kind, name: meta.name, namespace: meta.namespace });
      } catch (error) {
        if (statusCode(error) !== 404) throw error;
      }
    }
    return (await this.#api.list({ kind })).items.length;
  }

  /** Serves the definition's versions (undefined: stops serving them) and brings OpenAPI in line. */
  async #serve(name: string, crd: CustomResourceDefinition | undefined): Promise<CustomResource | undefined> {
    const before = new Set(this.#openapi.get(name)?.keys() ?? []);
    const accepted = crd?.status?.acceptedNames;
    let resource: CustomResource | undefined;
    if (crd === undefined || accepted === undefined) {
      this.#served.delete(name);
      if (this.#api.kinds.custom(name).length === 0) return undefined;
      this.#api.kinds.setCustom(name, []);
      this.#openapi.delete(name);
    } else {
      // The definition's own status writes come back as changes: what is served only changes with these.
      const meta = crd.metadata ?? {};
      const key = JSON.stringify([meta.uid, meta.generation, accepted, isConditionTrue(crd, "Terminating")]);
      const current = this.#served.get(name);
      if (current?.key === key) return current.resource;
      resource = customResource(crd, accepted, this.#resolveService);
      this.#served.set(name, { key, resource });
      this.#api.kinds.setCustom(name, resource.served);
      this.#openapi.set(name, resource.openapi);
    }
    const affected = new Set([...before, ...(this.#openapi.get(name)?.keys() ?? [])]);
    await this.#publishOpenApi(affected);
    return resource;
  }

  async #publishOpenApi(groupVersions: Set<string>): Promise<void> {
    const served = this.#api.kinds.groupVersions();
    for (const key of groupVersions) {
      const gv = served.find((g) => `${g.group}/${g.version}` === key);
      if (gv === undefined) {
        const slash = key.lastIndexOf("/");
        this.#options.openapi.removeGroupVersion(key.slice(0, slash), key.slice(slash + 1));
        continue;
      }
      const scaled = gv.resources.some((r) => r.subresources?.some((s) => s.name === "scale"));
      const schemas: Record<string, Schema> = scaled ? { ...(await scaleSchemas()) } : {};
      const v2: Record<string, Schema> = {};
      for (const byGv of this.#openapi.values()) {
        Object.assign(schemas, byGv.get(key)?.v3);
        Object.assign(v2, byGv.get(key)?.v2);
      }
      await this.#options.openapi.setGroupVersion(gv, schemas, v2);
    }
  }
}
