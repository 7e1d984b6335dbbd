// kube-apiserver's ImagePolicyWebhook admission: a pod's create or update (and an update of its ephemeral
// containers) is sent as an ImageReview to the backend the configured kubeconfig names, and refused with
// 403 Forbidden unless the backend allows its images. Answers are kept for allowTTL or denyTTL; a backend
// that cannot be reached (after kube's webhook retries) lets the pod in only with defaultAllow, marking the
// request's audit event. kube also sets alpha.image-policy.k8s.io/failed-open on the pod then, but on the
// copy its validating admission works on, so the stored pod never carries it; nor does it here.
import { badRequest, StatusError } from "../../errors/status-error.js";
import {
  loadWebhookClient,
  postJsonWithRetry,
  type RetryBackoff,
  type WebhookClient,
} from "../../http/webhook-client.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";
import type { KubeObject } from "../../object/kube-object.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { ExpiringCache } from "./expiring-cache.js";
import { loadImagePolicyConfig } from "./image-policy-config.js";

export const imagePolicyWebhookPluginName = "ImagePolicyWebhook";

/** The prefix of the audit annotations this plugin adds (the plugin's name, lowercased). */
export const auditKeyPrefix = "imagepolicywebhook.image-policy.k8s.io/";

const reviewApiVersion = "imagepolicy.k8s.io/v1alpha1";
const ephemeralContainers = "ephemeralcontainers";
/** kube's webhook client gives up on a call after this long; it also tells the backend through `?timeout=`. */
const requestTimeoutMs = 30_000;
const cacheSize = 1024;

export interface ImagePolicyWebhookOptions {
  /** The answer cache's clock (milliseconds); Date.now unless a test drives time. */
  now?: () => number;
}

interface ImageReviewSpec {
  containers?: { image?: string }[];
  annotations?: Record<string, string>;
  namespace?: string;
}

interface ImageReviewStatus {
  allowed: boolean;
  reason?: string;
  auditAnnotations?: Record<string, string>;
}

/** Why the backend gave no answer; `forbiddenStatus` when it answered a Forbidden Status, which kube passes on as it is. */
class BackendFailure extends Error {
  constructor(
    message: string,
    readonly forbiddenStatus = false,
  ) {
    super(message);
  }
}

function strings(value: unknown): Record<string, string> {
  if (!isJsonObject(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** The spec of the review, its fields and its annotations' keys in the order Go encodes them (the cache key too). */
function reviewSpec(a: AdmissionAttributes, pod: KubeObject): ImageReviewSpec {
  const spec = isJsonObject(pod.spec) ? pod.spec : {};
  const lists =
    a.subresource === ephemeralContainers ? [spec.ephemeralContainers] : [spec.containers, spec.initContainers];
  const containers = lists
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .map((c: unknown) => {
      const image = isJsonObject(c) && typeof c.image === "string" ? c.image : "";
      return image === "" ? {} : { image };
    });
  const metadata = isJsonObject(pod.metadata) ? pod.metadata : {};
  const annotations = Object.entries(strings(metadata.annotations))
    .filter(([key]) => key.includes(".image-policy.k8s.io/"))
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return {
    ...(containers.length === 0 ? {} : { containers }),
    ...(annotations.length === 0 ? {} : { annotations: Object.fromEntries(annotations) }),
    ...(a.namespace ? { namespace: a.namespace } : {}),
  };
}

/** Go's wording of the transport failures Node reports by code, after client-go's `Post "<url>": `. */
function transportFailure(error: Error, url: URL): BackendFailure {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined) return new BackendFailure(error.message);
  const causes: Record<string, string> = {
    ECONNREFUSED: `dial tcp ${url.host}: connect: connection refused`,
    ENOTFOUND: `dial tcp: lookup ${url.hostname}: no such host`,
    ECONNRESET: "EOF",
  };
  return new BackendFailure(`Post ${JSON.stringify(url.href)}: ${causes[code] ?? error.message}`);
}

/** errors.NewGenericServerResponse's text for an answer outside 2xx whose body is not a Status. */
function genericServerMessage(status: number): string {
  const fixed: Record<number, string> = {
    400: "the server rejected our request for an unknown reason",
    401: "the server has asked for the client to provide credentials",
    403: "unknown",
    404: "the server could not find the requested resource",
    405: "the server does not allow this method on the requested resource",
    409: "the server reported a conflict",
    415: "unknown",
    422: "the server rejected our request due to an error in our request",
    429: "the server has received too many requests and has asked us to try again later",
    503: "the server is currently unable to handle the request",
    504: "the server was unable to return a response in the time allotted, but may still be processing the request",
  };
  if (fixed[status] !== undefined) return fixed[status];
  if (status >= 500) return `an error on the server ("unknown") has prevented the request from succeeding`;
  return `the server responded with the status code ${status} but did not return more information`;
}

/** client-go's error for an answer outside 2xx: the Status it carries, else the generic text for its code. */
function answerFailure(status: number, body: unknown): BackendFailure {
  if (isJsonObject(body) && body.kind === "Status" && body.status === "Failure") {
    const message = typeof body.message === "string" ? body.message : "";
    return new BackendFailure(message, body.reason === "Forbidden");
  }
  return new BackendFailure(genericServerMessage(status), status === 403);
}

function reviewStatus(body: unknown): ImageReviewStatus {
  const status: JsonObject = isJsonObject(body) && isJsonObject(body.status) ? body.status : {};
  return {
    allowed: status.allowed === true,
    ...(typeof status.reason === "string" ? { reason: status.reason } : {}),
    auditAnnotations: strings(status.auditAnnotations),
  };
}

/** The plugin from its configuration; a missing or invalid configuration throws kube's startup error. */
export function imagePolicyWebhook(
  context: AdmissionPluginContext,
  options: ImagePolicyWebhookOptions = {},
): AdmissionPlugin {
  const config = loadImagePolicyConfig(context.config?.text);
  if (config.kubeConfigFile === "") {
    throw new Error(
      "invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable",
    );
  }
  const loaded = loadWebhookClient(config.kubeConfigFile);
  const url = new URL(loaded.url);
  url.searchParams.set("timeout", "30s");
  const client: WebhookClient = { ...loaded, url };
  const backoff: RetryBackoff = { initialDelayMs: config.retryBackoffMs, factor: 1.5, jitter: 0.2, attempts: 5 };
  const answers = new ExpiringCache<ImageReviewStatus>(cacheSize, options.now ?? Date.now);

  async function ask(spec: ImageReviewSpec): Promise<ImageReviewStatus> {
    const review = {
      kind: "ImageReview",
      apiVersion: reviewApiVersion,
      metadata: {},
      spec,
      status: { allowed: false },
    };
    let response: Awaited<ReturnType<typeof postJsonWithRetry>>;
    try {
      response = await postJsonWithRetry(client, review, requestTimeoutMs, backoff);
    } catch (error) {
      throw transportFailure(error as Error, url);
    }
    if (response.status < 200 || response.status > 299) throw answerFailure(response.status, response.body);
    if (response.body === undefined) {
      throw new BackendFailure(
        `0-length response with status code: ${response.status} and content type: application/json`,
      );
    }
    return reviewStatus(response.body);
  }

  async function review(a: AdmissionAttributes, pod: KubeObject): Promise<void> {
    const spec = reviewSpec(a, pod);
    const key = JSON.stringify(spec);
    let status = answers.get(key);
    if (status === undefined) {
      try {
        status = await ask(spec);
      } catch (error) {
        if (!(error instanceof BackendFailure)) throw error;
        if (config.defaultAllow) {
          a.request?.annotate(`${auditKeyPrefix}failed-open`, "true");
          return;
        }
        if (error.forbiddenStatus) throw new StatusError(403, "Forbidden", error.message);
        throw admissionForbidden(a, error.message);
      }
      answers.add(key, status, status.allowed ? config.allowTtlMs : config.denyTtlMs);
    }
    for (const [k, v] of Object.entries(status.auditAnnotations ?? {})) a.request?.annotate(`${auditKeyPrefix}${k}`, v);
    if (status.allowed) return;
    const why =
      status.reason !== undefined && status.reason !== ""
        ? `image policy webhook backend denied one or more images: ${status.reason}`
        : "one or more images rejected by webhook backend";
    throw admissionForbidden(a, why);
  }

  return {
    name: imagePolicyWebhookPluginName,
    async validate(a) {
      if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
      if (a.subresource !== undefined && a.subresource !== ephemeralContainers) return;
      if (a.kind.group !== "" || a.kind.resource.plural !== "pods") return;
      if (a.object === undefined) throw badRequest("Resource was marked with kind Pod but was unable to be converted");
      await review(a, a.object);
    },
  };
}
