// What the CSR controllers (csrapproving, csrsigning) share in syncing a CertificateSigningRequest: the
// requests followed into a work queue by name, each read afresh when its turn comes, and its spec.request
// parsed, a request that does not parse failing the sync with kube's text.
import type { JsonObject } from "../../object/json-object.js";
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import {
  type CertificateRequest,
  CertificateRequestError,
  requestOf,
} from "../../strategies/certificate-signing-request-parse.js";
import { statusCode } from "../api-errors.js";
import type { ControllerContext } from "../controller-context.js";
import { followObjects } from "../follow-objects.js";
import type { WorkQueue } from "../work-queue.js";

export const certificateSigningRequests = builtinKind("certificates.k8s.io", "v1", "certificatesigningrequests");

/** Queues every request added or changed until the context's signal aborts, then stops the queue. */
export async function queueSigningRequests(
  api: ResourceApi,
  queue: WorkQueue<string>,
  context: ControllerContext,
  name: string,
): Promise<void> {
  await followObjects(
    api,
    { kind: certificateSigningRequests },
    (event) => {
      if (event.type !== "DELETED") queue.add(String((event.object.metadata as { name?: string }).name));
    },
    { ...context, name },
  );
  await queue.stop();
}

/** A copy of the request named `name`, to change and write back; undefined once it is gone. */
export async function readSigningRequest(api: ResourceApi, name: string): Promise<KubeObject | undefined> {
  try {
    return structuredClone((await api.get({ kind: certificateSigningRequests, name })).object);
  } catch (error) {
    if (statusCode(error) === 404) return undefined;
    throw error;
  }
}

/** The certification request of the CSR `name`'s spec; one that does not parse fails the sync. */
export function parsedRequest(name: string, spec: JsonObject): CertificateRequest {
  try {
    return requestOf(spec);
  } catch (error) {
    if (error instanceof CertificateRequestError) throw new Error(`unable to parse csr "${name}": ${error.message}`);
    throw error;
  }
}

/** spec.usages as strings. */
export function usagesOf(spec: JsonObject): string[] {
  return (Array.isArray(spec.usages) ? spec.usages : []).map(String);
}
