// Conversion strategy Webhook, as kube's webhookConverter: the objects not yet in the desired version go
// to the webhook in one ConversionReview, and what comes back is checked object by object (desired
// group/version, same kind, same name, namespace and uid, metadata restored but for labels and
// annotations) before it takes the place of the object sent. One object is converted with kube's
// single-object wording, several with its list wording (whose later indexes count from 1, as kube's do).
import { randomUUID } from "node:crypto";
import type { ServiceEndpointResolver } from "../../http/service-resolver.js";
import { isJsonObject } from "../../object/json-object.js";
import type { KubeObject } from "../../object/kube-object.js";
import { conversionFailure } from "./conversion-failure.js";
import { type ConversionRequest, conversionReview, convertedObjectsOf, reviewVersionFor } from "./conversion-review.js";
import { callConversionWebhook, WebhookCallError } from "./conversion-webhook-call.js";
import { identityChange, restoreMetadata } from "./converted-metadata.js";
import {
  type GroupVersionKind,
  groupVersionKindText,
  groupVersionText,
  objectKind,
  withApiVersion,
} from "./object-version.js";
import type { WebhookEndpoint } from "./webhook-endpoint.js";

export interface WebhookConversion {
  endpoint: WebhookEndpoint;
  /** Where a service endpoint is reached, asked on every call. */
  resolveService: ServiceEndpointResolver;
  conversionReviewVersions: readonly string[];
  timeoutMs: number;
  /** The list kind of the CRD, which names a batch of several objects in errors. */
  listKind: string;
}

/** An object with nothing but apiVersion and kind (a smoke test of kube's) is never sent. */
function isEmptyObject(obj: KubeObject): boolean {
  const keys = Object.keys(obj);
  return keys.length === 2 && "apiVersion" in obj && "kind" in obj;
}

function jsonTypeName(value: unknown): string {
  return Array.isArray(value) ? "array" : typeof value;
}

/** An element of convertedObjects decoded as unstructured decoding would; a string is its error. */
function decodeConverted(value: unknown): KubeObject | string {
  if (value === null || value === undefined) return "unexpected end of JSON input";
  if (!isJsonObject(value)) {
    return `json: cannot unmarshal ${jsonTypeName(value)} into Go value of type map[string]interface {}`;
  }
  if (typeof value.kind !== "string" || value.kind === "") {
    return `Object 'Kind' is missing in '${JSON.stringify(value)}'`;
  }
  return value;
}

/**
 * How kube words a refused converted object. `index` is the object's place among those sent; after
 * decoding, kube's list wording names the next one (it counts the object before checking it further).
 */
interface Wording {
  undecodable(index: number, detail: string): string;
  invalid(index: number, detail: string): string;
  moved(index: number, detail: string): string;
  badMetadata(index: number, detail: string): string;
}

function wording(inText: string, single: boolean): Wording {
  const prefix = `conversion webhook for ${inText} returned`;
  if (single) {
    return {
      undecodable: (_, detail) => detail,
      invalid: (_, detail) => `${prefix} invalid object at index 0: ${detail}`,
      moved: (_, detail) => `${prefix} invalid object: ${detail}`,
      badMetadata: (_, detail) => `${prefix} invalid metadata: ${detail}`,
    };
  }
  const invalid = (index: number, detail: string) =>
    `${prefix} invalid converted object at index ${index + 1}: ${detail}`;
  return {
    undecodable: (index, detail) => `${prefix} invalid converted object at index ${index}: ${detail}`,
    invalid,
    moved: invalid,
    badMetadata: (index, detail) => `${prefix} invalid metadata in object at index ${index + 1}: ${detail}`,
  };
}

function checkConverted(
  original: KubeObject,
  answer: unknown,
  index: number,
  desired: { group: string; version: string },
  words: Wording,
): KubeObject {
  const decoded = decodeConverted(answer);
  if (typeof decoded === "string") throw conversionFailure(words.undecodable(index, decoded));
  const got: GroupVersionKind = objectKind(decoded);
  if (got.group !== desired.group || got.version !== desired.version) {
    const detail = `invalid groupVersion (expected ${groupVersionText(desired)}, received ${groupVersionText(got)})`;
    throw conversionFailure(words.invalid(index, detail));
  }
  const kind = objectKind(original).kind;
  if (got.kind !== kind) {
    throw conversionFailure(words.invalid(index, `invalid kind (expected ${kind}, received ${got.kind})`));
  }
  const moved = identityChange(original, decoded);
  if (moved !== undefined) throw conversionFailure(words.moved(index, moved));
  const metadataProblem = restoreMetadata(original, decoded);
  if (metadataProblem !== undefined) throw conversionFailure(words.badMetadata(index, metadataProblem));
  return decoded;
}

async function ask(webhook: WebhookConversion, request: ConversionRequest, inText: string): Promise<unknown[]> {
  let answer: unknown;
  try {
    answer = await callConversionWebhook(
      webhook.endpoint,
      conversionReview(request),
      webhook.timeoutMs,
      webhook.resolveService,
    );
  } catch (error) {
    if (!(error instanceof WebhookCallError)) throw error;
    throw conversionFailure(`conversion webhook for ${inText} failed: ${error.message}`);
  }
  const objects = convertedObjectsOf(request, answer);
  if (typeof objects === "string") throw conversionFailure(`conversion webhook for ${inText} failed: ${objects}`);
  return objects;
}

export async function convertThroughWebhook(
  webhook: WebhookConversion,
  objects: readonly KubeObject[],
  desired: { group: string; version: string },
): Promise<KubeObject[]> {
  const desiredAPIVersion = groupVersionText(desired);
  const [first] = objects;
  if (first === undefined) return [];
  const single = objects.length === 1;
  if (single && isEmptyObject(first)) return [withApiVersion(first, desiredAPIVersion)];
  const inKind = objectKind(first);
  const inText = groupVersionKindText(single ? inKind : { ...inKind, kind: webhook.listKind });
  const toConvert = objects.filter((o) => o.apiVersion !== desiredAPIVersion);
  const reviewVersion = reviewVersionFor(webhook.conversionReviewVersions);
  if (reviewVersion === undefined) throw conversionFailure("no supported conversion review versions");
  if (toConvert.length === 0) return objects.map((o) => structuredClone(o));

  const request = { reviewVersion, uid: randomUUID(), desiredAPIVersion, objects: toConvert };
  const answers = await ask(webhook, request, inText);
  if (answers.length !== toConvert.length) {
    throw conversionFailure(
      `conversion webhook for ${inText} returned ${answers.length} objects, expected ${toConvert.length}`,
    );
  }
  const words = wording(inText, single);
  let index = 0;
  return objects.map((original) => {
    if (original.apiVersion === desiredAPIVersion) return structuredClone(original);
    const result = checkConverted(original, answers[index], index, desired, words);
    index++;
    return result;
  });
}
