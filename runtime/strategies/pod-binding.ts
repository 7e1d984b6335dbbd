// Binding a pod to a node as kube's BindingREST does, for POST pods/NAME/binding and POST
// namespaces/NS/bindings: the Binding names a Node, the pod is unassigned, not deleting and not gated; the
// pod gets spec.nodeName, the Binding's annotations and labels, and PodScheduled=True. The Binding itself is
// never stored; the answer is a Success Status.
import { type FieldError, notSupported, required } from "../errors/field-error.js";
import { formatFieldError } from "../errors/format-field-error.js";
import { badRequest, conflict, StatusError } from "../errors/status-error.js";
import type { KubeObject } from "../object/kube-object.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";
import type { HookRequest, KindStrategy } from "./hook-request.js";
import { pods } from "./pod-related-kinds.js";

export const successStatus: KubeObject = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Success",
  code: 201,
};

/** ValidatePodBinding; kube returns its errors as a plain error (500, no reason). */
function bindingErrors(binding: KubeObject): FieldError[] {
  const target = asObject(binding.target) ?? {};
  const errs: FieldError[] = [];
  const kind = typeof target.kind === "string" ? target.kind : "";
  if (kind !== "" && kind !== "Node") errs.push(notSupported("target.kind", kind, ["Node", "<empty>"]));
  if (typeof target.name !== "string" || target.name === "") errs.push(required("target.name", ""));
  return errs;
}

/** A StorageError's text for a failed precondition, as kube's binding answers it. */
function preconditionFailed(pod: KubeObject, what: string, wanted: string, actual: string): StatusError {
  const meta = asObject(pod.metadata) ?? {};
  const key = `/registry/pods/${String(meta.namespace)}/${String(meta.name)}`;
  const cause = `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${what} in precondition: ${wanted}, ${what} in object meta: ${actual}`;
  return conflict({ group: "", name: "pods" }, String(meta.name), cause);
}

/** Why the pod cannot be bound, worded as kube's setPodNodeAndMetadata. */
function refusal(pod: KubeObject): string | undefined {
  const meta = asObject(pod.metadata) ?? {};
  const spec = asObject(pod.spec) ?? {};
  const name = String(meta.name);
  if (meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null) {
    return `pod ${name} is being deleted, cannot be assigned to a host`;
  }
  if (typeof spec.nodeName === "string" && spec.nodeName !== "") {
    return `pod ${name} is already assigned to node "${spec.nodeName}"`;
  }
  if (listItems(spec.schedulingGates).length > 0) return `pod ${name} has non-empty .spec.schedulingGates`;
  return undefined;
}

function mergeInto(meta: JsonObject, field: string, values: unknown): void {
  const given = asObject(values);
  if (given === undefined || Object.keys(given).length === 0) return;
  meta[field] = { ...(asObject(meta[field]) ?? {}), ...given };
}

export async function bindPod(binding: KubeObject, request: HookRequest): Promise<KubeObject> {
  const meta = asObject(binding.metadata) ?? {};
  const name = String(meta.name ?? "");
  if (request.name !== undefined && request.name !== name) {
    throw badRequest("name in URL does not match name in Binding object");
  }
  const errs = bindingErrors(binding);
  if (errs.length > 0) {
    const texts = errs.map(formatFieldError);
    throw new StatusError(500, undefined, texts.length === 1 ? (texts[0] ?? "") : `[${texts.join(", ")}]`);
  }
  const target = { kind: pods, namespace: request.namespace, name, subresource: "binding" };
  for (;;) {
    const pod = structuredClone((await request.resources.get({ ...target, subresource: undefined })).object);
    const podMeta = asObject(pod.metadata) ?? {};
    if (typeof meta.uid === "string" && meta.uid !== "" && meta.uid !== podMeta.uid) {
      throw preconditionFailed(pod, "UID", meta.uid, String(podMeta.uid));
    }
    const rv = typeof meta.resourceVersion === "string" ? meta.resourceVersion : "";
    if (rv !== "" && rv !== podMeta.resourceVersion) {
      throw preconditionFailed(pod, "ResourceVersion", rv, String(podMeta.resourceVersion));
    }
    const refused = refusal(pod);
    if (refused !== undefined) throw conflict({ group: "", name: "pods/binding" }, name, refused);
    (pod.spec as JsonObject).nodeName = asObject(binding.target)?.name;
    mergeInto(podMeta, "annotations", meta.annotations);
    mergeInto(podMeta, "labels", meta.labels);
    try {
      await request.resources.update(target, pod, { dryRun: request.dryRun });
      return successStatus;
    } catch (error) {
      // Another write landed in between: bind the newer pod, unless the client named a version.
      if (!(error instanceof StatusError && error.code === 409 && rv === "")) throw error;
    }
  }
}

export const strategy: KindStrategy = {
  answerCreate: bindPod,
};
