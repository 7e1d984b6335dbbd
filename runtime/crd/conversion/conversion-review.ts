// The apiextensions ConversionReview exchanged with a conversion webhook: the request kube sends in the
// first version of conversionReviewVersions it knows (v1 or v1beta1), and its reading of the answer. A v1
// answer must be a v1 ConversionReview for the same uid; v1beta1 answers are not checked for either, as
// kube keeps v1beta1's looser reading for compatibility.
import { isJsonObject } from "../../object/json-object.js";
import type { KubeObject } from "../../object/kube-object.js";
import { groupVersionKindText, objectKind } from "./object-version.js";

const group = "apiextensions.k8s.io";
const supportedVersions = new Set(["v1", "v1beta1"]);

export interface ConversionRequest {
  reviewVersion: string;
  uid: string;
  desiredAPIVersion: string;
  objects: KubeObject[];
}

/** The first version kube supports among the webhook's preferred ones; undefined when there is none. */
export function reviewVersionFor(conversionReviewVersions: readonly string[]): string | undefined {
  return conversionReviewVersions.find((v) => supportedVersions.has(v));
}

/** The review as kube encodes it, its empty response included. */
export function conversionReview(request: ConversionRequest): KubeObject {
  return {
    kind: "ConversionReview",
    apiVersion: `${group}/${request.reviewVersion}`,
    request: { uid: request.uid, desiredAPIVersion: request.desiredAPIVersion, objects: request.objects },
    response: { uid: "", convertedObjects: null, result: { metadata: {} } },
  };
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The converted objects of a successful answer, or the reason kube gives for refusing the answer. */
export function convertedObjectsOf(request: ConversionRequest, answer: unknown): unknown[] | string {
  const review = isJsonObject(answer) ? answer : {};
  if (request.reviewVersion === "v1") {
    if (text(review.kind) === "") return `Object 'Kind' is missing in '${JSON.stringify(answer)}'`;
    const got = objectKind(review);
    if (got.group !== group || got.version !== "v1" || got.kind !== "ConversionReview") {
      return `expected webhook response of ${group}/v1, Kind=ConversionReview, got ${groupVersionKindText(got)}`;
    }
  }
  const response = review.response;
  if (!isJsonObject(response)) return "no response provided";
  if (request.reviewVersion === "v1" && text(response.uid) !== request.uid) {
    return `expected response.uid=${JSON.stringify(request.uid)}, got ${JSON.stringify(text(response.uid))}`;
  }
  const result = isJsonObject(response.result) ? response.result : {};
  if (result.status !== "Success") {
    const message = text(result.message);
    return message !== "" ? message : `response.result.status was '${text(result.status)}', not 'Success'`;
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}
