// The default RBAC policy written into a server's own new store, the fast way to what reconciling it there
// gives. Reconciling creates 133 objects through the whole create path (defaulting, validation, managedFields,
// admission), most of a server's start. Those objects are the same in every new store but for their uids and
// times, so they are made once per process through that path (reconcileBootstrapPolicy, in a store of their
// own) and each new server gets them written again with its own uids and times. A new store holds no policy
// an admission plugin could apply, nor objects a create could conflict with; an object that does exist
// (a client was quicker) leaves that object to the usual reconciliation. The copy is shared by every server
// of the process but holds nothing of any of them: the default policy is public and the same everywhere.
import { randomUUID } from "node:crypto";
import { statusCode } from "../../controllers/api-errors.js";
import { namespaces } from "../../controllers/core-kinds.js";
import type { KubeObject } from "../../object/kube-object.js";
import type { KindRegistry } from "../../registry/kind-registry.js";
import type { ServedKind } from "../../registry/served-kind.js";
import { ResourceApi } from "../../resources/resource-api.js";
import { encodeStored } from "../../resources/resource-storage.js";
import { formatTime } from "../../resources/timestamps.js";
import { MemoryStore } from "../../storage/memory-store.js";
import { KeyExistsError } from "../../storage/storage-errors.js";
import { clusterRoleBindingKind, clusterRoleKind, roleBindingKind, roleKind } from "./rbac-index.js";
import { reconcileBootstrapPolicy } from "./reconcile-bootstrap-policy.js";

/** One created object's stored text, cut where each server's own uid and times go. */
interface Created {
  kind: ServedKind;
  namespace: string | undefined;
  name: string;
  /** Text at even indexes, a mark at odd ones. */
  pieces: string[];
}

interface Metadata {
  name: string;
  namespace?: string;
  managedFields?: Record<string, unknown>[];
}

const policyKinds = [clusterRoleKind, clusterRoleBindingKind, roleKind, roleBindingKind];

/** Stand-ins for a server's uid and times in the template; no policy text holds a NUL. */
const uidMark = "\u0000uid";
const timeMark = "\u0000time";
/** The marks as JSON writes them, in the stored text. */
const uidText = "\\u0000uid";
const marks = /(\\u0000uid|\\u0000time)/;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The object's stored text with the marks where its uid and times are. */
function markedPieces(object: KubeObject): string[] {
  const meta = object.metadata as Metadata;
  const marked = {
    ...object,
    metadata: {
      ...meta,
      uid: uidMark,
      creationTimestamp: timeMark,
      managedFields: meta.managedFields?.map((entry) => ({ ...entry, time: timeMark })),
    },
  };
  return decoder.decode(encodeStored(marked)).split(marks);
}

let created: Promise<Created[]> | undefined;

/** What reconciling the default policy creates in an empty store, read back from one. */
async function createdInEmptyStore(kinds: KindRegistry): Promise<Created[]> {
  const store = new MemoryStore();
  const scratch = new ResourceApi({ store, kinds });
  try {
    await reconcileBootstrapPolicy(scratch);
    const lists = await Promise.all(
      policyKinds.map(async (kind) =>
        (await scratch.list({ kind })).items.map(({ object }): Created => {
          const { name, namespace } = object.metadata as Metadata;
          return { kind, namespace, name, pieces: markedPieces(object) };
        }),
      ),
    );
    return lists.flat();
  } finally {
    scratch.close();
    await store.close();
  }
}

async function ensureNamespace(api: ResourceApi, name: string): Promise<void> {
  try {
    await api.get({ kind: namespaces, name });
  } catch (error) {
    if (statusCode(error) !== 404) throw error;
    try {
      await api.create({ kind: namespaces }, { apiVersion: "v1", kind: "Namespace", metadata: { name } });
    } catch (createError) {
      if (statusCode(createError) !== 409) throw createError;
    }
  }
}

/**
 * Writes the default policy into a new store of the server's own; see above for why that equals creating it.
 * Resolves to the revision each resource was last written at, or to undefined when an object that existed
 * was reconciled instead (reconciliation does not tell what it wrote).
 */
export async function seedBootstrapPolicy(api: ResourceApi): Promise<ReadonlyMap<ServedKind, number> | undefined> {
  // A failure is not kept: the next server tries again.
  created ??= createdInEmptyStore(api.kinds).catch((error: unknown) => {
    created = undefined;
    throw error;
  });
  const objects = await created;
  const spaces = new Set(objects.flatMap(({ namespace }) => namespace ?? []));
  for (const namespace of spaces) await ensureNamespace(api, namespace);
  const now = formatTime(api.context.now());
  const revisions = new Map<ServedKind, number>();
  const written = await Promise.all(
    objects.map(async ({ kind, namespace, name, pieces }) => {
      const uid = randomUUID();
      const text = pieces.map((piece, i) => (i % 2 === 0 ? piece : piece === uidText ? uid : now)).join("");
      try {
        const kv = await api.context.store.create(api.context.keyOf({ kind, namespace }, name), encoder.encode(text));
        revisions.set(kind, Math.max(revisions.get(kind) ?? 0, kv.modRevision));
        return true;
      } catch (error) {
        if (!(error instanceof KeyExistsError)) throw error;
        return false;
      }
    }),
  );
  if (!written.includes(false)) return revisions;
  await reconcileBootstrapPolicy(api);
  return undefined;
}
