// The MutatingAdmissionWebhook's pass over one request, as kube's mutating dispatcher makes it: webhooks in
// order, one at a time, each seeing the object as the ones before it left it. A JSON patch answer is applied
// at the matched version, decoded as the kind decodes (unknown fields dropped), defaulted, and converted back.
// Reinvocation: a webhook whose patch changed the object asks for the chain's second pass; on it, only the
// webhooks with reinvocationPolicy IfNeeded that ran before a later change are called again.
import { isDeepStrictEqual } from "node:util";
import { checkFields, kindFields } from "../../codecs/unknown-fields.js";
import { goQuote } from "../../errors/go-format.js";
import { internal, StatusError, serviceUnavailable } from "../../errors/status-error.js";
import { isJsonObject } from "../../object/json-object.js";
import type { KubeObject } from "../../object/kube-object.js";
import { applyJsonPatch } from "../../patch/json-patch.js";
import type { ServedKind } from "../../registry/served-kind.js";
import { convertTo } from "../../resources/versioned.js";
import type { AdmissionAttributes } from "../admission.js";
import type { AdmissionMetrics } from "../admission-metrics.js";
import type { AdmissionResponse } from "./admission-review.js";
import { callWebhook, outcomeOf, recordCall } from "./call-webhook.js";
import type { Webhook } from "./webhook-configurations.js";
import { CallingWebhookError, rejectionStatus } from "./webhook-errors.js";
import { type Invocation, type RequestMatcher, versionedObject } from "./webhook-matcher.js";
import type { TransportOptions } from "./webhook-transport.js";

export const mutatingPluginName = "MutatingAdmissionWebhook";

/** kube's webhookReinvokeContext, kept in the request's reinvocation state between the two passes. */
interface ReinvokeState {
  lastOutput: KubeObject | undefined;
  previouslyInvoked: Set<string>;
  reinvoke: Set<string>;
}

function reinvokeState(a: AdmissionAttributes): ReinvokeState {
  const state = a.reinvocation?.state;
  let found = state?.get(mutatingPluginName) as ReinvokeState | undefined;
  if (found === undefined) {
    found = { lastOutput: undefined, previouslyInvoked: new Set(), reinvoke: new Set() };
    state?.set(mutatingPluginName, found);
  }
  return found;
}

function requireReinvoking(state: ReinvokeState): void {
  for (const uid of state.previouslyInvoked) state.reinvoke.add(uid);
  state.previouslyInvoked.clear();
}

export interface MutatingDispatch {
  matcher: RequestMatcher;
  transport: TransportOptions;
  metrics: AdmissionMetrics;
}

/** The patched object as kube decodes it into the kind: a type error is a 500, unknown fields go. */
function decodePatched(kind: ServedKind, patched: unknown): KubeObject {
  if (!isJsonObject(patched)) throw internal("the patched object is not a JSON object");
  if (kind.custom !== undefined) {
    kind.custom.prune(patched);
    return patched as KubeObject;
  }
  const n = kindFields(kind.group, kind.version, kind.kind);
  if (n !== undefined) {
    const check = checkFields(patched, n);
    if (check.fatal !== undefined) throw internal(check.fatal);
  }
  return patched as KubeObject;
}

/** The library's own message of a failed patch (the 422's cause), which kube reports as an internal error. */
function patchFailure(error: unknown): StatusError {
  if (!(error instanceof StatusError)) throw error;
  return internal(error.cause instanceof Error ? error.cause.message : error.message);
}

/** Applies an allowing answer's patch to the request's object; true when it changed the object. */
async function applyPatch(
  name: string,
  invocation: Invocation,
  a: AdmissionAttributes,
  response: AdmissionResponse,
): Promise<boolean> {
  if (response.patch === undefined || response.patch.length === 0) return false;
  let operations: unknown;
  try {
    operations = JSON.parse(response.patch.toString("utf8"));
  } catch (error) {
    throw new CallingWebhookError(
      name,
      `received undecodable patch in webhook response: ${(error as Error).message}`,
      serviceUnavailable("error decoding patch in webhook response"),
    );
  }
  if (!Array.isArray(operations)) {
    const type = operations === null ? "null" : typeof operations === "object" ? "object" : typeof operations;
    throw new CallingWebhookError(
      name,
      `received undecodable patch in webhook response: json: cannot unmarshal ${type} into Go value of type jsonpatch.Patch`,
      serviceUnavailable("error decoding patch in webhook response"),
    );
  }
  if (operations.length === 0) return false;
  const { kind } = invocation;
  const before = await versionedObject(a.kind, a.object, kind.version);
  if (before === undefined) {
    throw internal(
      `admission webhook ${goQuote(name)} attempted to modify the object, which is not supported for this operation`,
    );
  }
  if (response.patchType !== "JSONPatch") {
    throw new CallingWebhookError(
      name,
      `unsupported patch type ${goQuote(response.patchType)}`,
      rejectionStatus(name, response.result),
    );
  }
  let patched: unknown;
  try {
    patched = applyJsonPatch(before, { operations, problems: [] });
  } catch (error) {
    throw patchFailure(error);
  }
  const decoded = decodePatched(kind, patched);
  const changed = !isDeepStrictEqual(before, decoded);
  kind.schema.default(decoded);
  a.object = kind.version === a.kind.version ? decoded : await convertTo(kind, decoded, a.kind.version);
  return changed;
}

/** Runs the webhooks over the request; throws what the request is answered with. */
export async function dispatchMutating(
  webhooks: readonly Webhook[],
  a: AdmissionAttributes,
  d: MutatingDispatch,
): Promise<void> {
  const state = reinvokeState(a);
  const isReinvoke = a.reinvocation?.isReinvoke === true;
  if (isReinvoke && !isDeepStrictEqual(state.lastOutput, a.object)) {
    // In-tree plugins changed the object since the webhooks last ran: every eligible webhook runs again.
    requireReinvoking(state);
  }
  const round = isReinvoke ? 1 : 0;
  try {
    for (const [index, webhook] of webhooks.entries()) {
      const invocation = await d.matcher.shouldCall(webhook);
      if (invocation === undefined) continue;
      // A webhook not called on the first pass is never called first on the second.
      if (isReinvoke && !state.reinvoke.has(webhook.uid)) continue;
      const { spec } = webhook;
      const started = performance.now();
      let changed = false;
      let failure: unknown;
      try {
        const objects = {
          object: await versionedObject(a.kind, a.object, invocation.kind.version),
          oldObject: await versionedObject(a.kind, a.oldObject, invocation.kind.version),
        };
        const response = await callWebhook(invocation, a, objects, true, d.transport);
        changed = await applyPatch(spec.name, invocation, a, response);
      } catch (error) {
        failure = error;
      }
      const ignore = spec.failurePolicy === "Ignore";
      const outcome = outcomeOf(failure);
      recordCall(d.metrics, spec.name, "admit", a, outcome, ignore, (performance.now() - started) / 1000);
      a.request?.annotate(
        `mutation.webhook.admission.k8s.io/round_${round}_index_${index}`,
        JSON.stringify({ configuration: webhook.configurationName, webhook: spec.name, mutated: changed }),
      );
      if (changed) {
        requireReinvoking(state);
        if (a.reinvocation !== undefined) a.reinvocation.requested = true;
      }
      if (spec.reinvocationPolicy === "IfNeeded") state.previouslyInvoked.add(webhook.uid);
      switch (outcome.kind) {
        case "ok":
          continue;
        case "calling":
          if (ignore) {
            d.metrics.webhookFailOpen(spec.name, "admit");
            a.request?.annotate(
              `failed-open.mutation.webhook.admission.k8s.io/round_${round}_index_${index}`,
              spec.name,
            );
            continue;
          }
          throw internal(outcome.error.message);
        case "rejected":
          throw outcome.status;
        case "other":
          throw outcome.error;
      }
    }
  } finally {
    state.lastOutput = a.object === undefined ? undefined : structuredClone(a.object);
  }
}
