// A create, in kube-apiserver's order: type and namespace checks, defaulting, mutating admission, the
// server's metadata (uid, creation time, generation, a generated name), the kind's preparation,
// validation, validating admission, then the store. With dry run everything but the store write runs.
import { randomUUID } from "node:crypto";
import {
  type AdmissionAttributes,
  type AdmissionRequestInfo,
  admitMutating,
  admitValidating,
} from "../admission/admission.js";
import { alreadyExists, badRequest } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { groupResource, hasStatus, storedAsServed, tracksGeneration } from "../registry/kinds.js";
import { KeyExistsError } from "../storage/storage-errors.js";
import type { ApiContext, Target } from "./api-context.js";
import { type FieldOwner, trackUpdate } from "./field-ownership.js";
import { generateName } from "./generate-name.js";
import { objectMeta } from "./object-access.js";
import { decodeStored, encodeStored } from "./resource-storage.js";
import { formatTime } from "./timestamps.js";
import { checkNamespace, checkTypeMeta } from "./type-meta.js";
import { defaultObject, validateObject } from "./validate-object.js";
import { convertTo, toStorage } from "./versioned.js";
import { settleClaims } from "./write-claims.js";

export interface WriteOptions {
  dryRun?: boolean;
  /** Who writes, for managedFields; the server's own controllers when absent. */
  owner?: FieldOwner;
  /** The object is an apply's result: its managedFields are already computed. */
  applied?: boolean;
  /** The API request the write serves, for admission. */
  request?: AdmissionRequestInfo;
  /** For a write that creates through another verb (apply, create on update): whether the user may create. */
  authorizeCreate?: () => Promise<void>;
}

/** The manager kube-controller-manager's controllers write as, which kapi's in-server controllers are. */
export const controllerOwner: FieldOwner = { manager: "kube-controller-manager" };

/** The object with managedFields recorded for this write, unless apply computed them already. */
export function withOwnership(
  api: ApiContext,
  target: Target,
  live: KubeObject | undefined,
  obj: KubeObject,
  options: WriteOptions,
): KubeObject {
  if (options.applied === true) return obj;
  return trackUpdate(target, live, obj, options.owner ?? controllerOwner, api.now());
}

/** kube retries a generated name that collides this many times in all. */
const generateNameAttempts = 8;

/** Fields of ObjectMeta only the server sets on create. */
function resetSystemMeta(meta: Record<string, unknown>, now: Date): void {
  meta.uid = randomUUID();
  meta.creationTimestamp = formatTime(now);
  delete meta.selfLink;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
}

/**
 * A create naming a resourceVersion that reads as a nonzero number is refused with kube's text (any other value
 * is overwritten). kube's storage answers it with a 500 without a reason; it is the client's mistake, so kapi
 * answers 400. A dry run never reaches the storage and answers with the object as given, as kube's does.
 */
function refuseResourceVersion(meta: Record<string, unknown>): void {
  const version = meta.resourceVersion;
  if (
    typeof version === "string" &&
    /^[0-9]+$/.test(version) &&
    BigInt(version) !== 0n &&
    BigInt(version) < 2n ** 64n
  ) {
    throw badRequest("resourceVersion should not be set on objects to be created");
  }
}

export async function createObject(
  api: ApiContext,
  target: Target,
  body: KubeObject,
  options: WriteOptions = {},
): Promise<KubeObject> {
  const { kind } = target;
  checkTypeMeta(body, kind);
  checkNamespace(body, kind, target.namespace);
  defaultObject(kind, body);
  const dryRun = options.dryRun === true;
  const bodyName = objectMeta(body).name;
  const attributes: AdmissionAttributes = {
    operation: "CREATE",
    kind,
    namespace: target.namespace,
    name: typeof bodyName === "string" ? bodyName : "",
    subresource: undefined,
    object: withOwnership(api, target, undefined, body, options),
    dryRun,
    ...(options.request === undefined ? {} : { request: options.request }),
  };
  await admitMutating(api.admission, attributes);
  // Mutating plugins may have replaced the object (a webhook's patch).
  const obj = attributes.object as KubeObject;
  const meta = objectMeta(obj);

  resetSystemMeta(meta, api.now());
  const prefix = typeof meta.generateName === "string" && meta.generateName !== "" ? meta.generateName : undefined;
  const named = typeof meta.name === "string" && meta.name !== "";
  if (!named && prefix !== undefined) meta.name = generateName(prefix);
  if (hasStatus(kind)) delete obj.status;
  if (tracksGeneration(kind)) meta.generation = 1;
  else delete meta.generation;
  kind.strategy?.prepareForCreate?.(obj, options.request?.user);
  const claims = await kind.strategy?.claim?.(obj, undefined, api.writeEnvironment(dryRun));
  return settleClaims(claims, async () => {
    validateObject(kind, api.writeEnvironment(dryRun), obj);
    await options.authorizeCreate?.();
    attributes.name = meta.name as string;
    await admitValidating(api.admission, attributes);

    const asServed = storedAsServed(kind);
    const atStorage = asServed ? obj : await toStorage(kind, obj);
    if (dryRun) return obj;
    refuseResourceVersion(meta);
    for (let attempt = 1; ; attempt++) {
      const name = objectMeta(atStorage).name as string;
      try {
        const kv = await api.store.create(api.keyOf(target, name), encodeStored(atStorage));
        const created = decodeStored(kv);
        return asServed ? created : await convertTo(kind, created, kind.version);
      } catch (error) {
        if (!(error instanceof KeyExistsError)) throw error;
        if (named || prefix === undefined || attempt === generateNameAttempts) {
          throw alreadyExists(groupResource(kind), name);
        }
        objectMeta(atStorage).name = generateName(prefix);
      }
    }
  });
}
