import { describe, expect, it } from "vitest";
import {
  type ConverterOptions,
  customResourceConverter,
} from "../../../../runtime/crd/conversion/custom-resource-converter.js";
import { StatusError, serviceUnavailable } from "../../../../runtime/errors/status-error.js";
import type { ServiceEndpointResolver } from "../../../../runtime/http/service-resolver.js";
import type { KubeObject } from "../../../../runtime/object/kube-object.js";
import {
  type ConversionWebhook,
  noServices,
  type Reply,
  type Review,
  renamingConverter,
  startConversionWebhook,
} from "./conversion-webhook-server.js";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const failedFor = "conversion webhook for stable.example.com/v1, Kind=CronTab failed: ";
const returnedFor = "conversion webhook for stable.example.com/v1, Kind=CronTab returned ";

function crd(clientConfig: Record<string, unknown>, conversionReviewVersions = ["v1", "v1beta1"]) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "crontabs.stable.example.com" },
    spec: {
      group: "stable.example.com",
      names: { kind: "CronTab", plural: "crontabs", listKind: "CronTabList" },
      scope: "Namespaced",
      versions: [
        { name: "v1", served: true, storage: true },
        { name: "v2", served: true, storage: false },
      ],
      conversion: { strategy: "Webhook", webhook: { clientConfig, conversionReviewVersions } },
    },
  };
}

const cronTab = (version: string, name = "a"): KubeObject => {
  const spec = version === "v1" ? { cronSpec: "* * * * */5" } : { schedule: "* * * * */5" };
  return {
    apiVersion: `stable.example.com/${version}`,
    kind: "CronTab",
    metadata: { name, namespace: "default", uid: `uid-${name}`, resourceVersion: "7", labels: { app: "x" } },
    spec,
  };
};

async function converterFor(
  handler: (review: Review) => Reply,
  options: Partial<ConverterOptions> = {},
  reviewVersions?: string[],
): Promise<{ webhook: ConversionWebhook; convert: (objects: KubeObject[], version: string) => Promise<KubeObject[]> }> {
  const webhook = await startConversionWebhook(handler);
  const config = { url: `${webhook.origin}/convert`, caBundle: webhook.caBundle };
  const converter = customResourceConverter(crd(config, reviewVersions), { resolveService: noServices, ...options });
  return { webhook, convert: (objects, version) => converter.convert(objects, version) };
}

/** The Status a conversion rejects with (kube's 500 with no reason). */
async function failureOf(promise: Promise<unknown>): Promise<StatusError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StatusError);
  return error as StatusError;
}

/** The message of a single v1 -> v2 conversion answered by `handler`. */
async function messageFor(handler: (review: Review) => Reply, objects = [cronTab("v1")]): Promise<string> {
  const { convert } = await converterFor(handler);
  const error = await failureOf(convert(objects, "v2"));
  expect(error.code).toBe(500);
  expect(error.status).not.toHaveProperty("reason");
  return error.message;
}

const spoil = (edit: (response: Record<string, unknown>, objects: Record<string, unknown>[]) => void) =>
  renamingConverter((answer) => {
    const response = answer.response as Record<string, unknown>;
    edit(response, response.convertedObjects as Record<string, unknown>[]);
  });

const metadataOf = (obj: Record<string, unknown> | undefined) => obj?.metadata as Record<string, unknown>;

describe("conversion strategy Webhook", () => {
  it("sends one v1 ConversionReview and takes the converted objects", async () => {
    const { webhook, convert } = await converterFor(renamingConverter());
    const out = await convert([cronTab("v1")], "v2");
    expect(out).toEqual([{ ...cronTab("v1"), apiVersion: "stable.example.com/v2", spec: { schedule: "* * * * */5" } }]);
    expect(webhook.reviews).toHaveLength(1);
    const [review] = webhook.reviews;
    expect(review?.apiVersion).toBe("apiextensions.k8s.io/v1");
    expect(review?.kind).toBe("ConversionReview");
    expect(review?.request.uid).toMatch(uuid);
    expect(review?.request.desiredAPIVersion).toBe("stable.example.com/v2");
    expect(review?.request.objects).toEqual([cronTab("v1")]);
    expect(review?.response).toEqual({ uid: "", convertedObjects: null, result: { metadata: {} } });
    expect(webhook.paths).toEqual(["/convert?timeout=30s"]);
  });

  it("converts back, with a fresh uid per call", async () => {
    const { webhook, convert } = await converterFor(renamingConverter());
    const [v2] = await convert([cronTab("v1")], "v2");
    const back = await convert([v2 as KubeObject], "v1");
    expect(back).toEqual([cronTab("v1")]);
    expect(webhook.reviews[0]?.request.uid).not.toBe(webhook.reviews[1]?.request.uid);
  });

  it("sends only the objects not yet in the desired version and keeps the order", async () => {
    const { webhook, convert } = await converterFor(renamingConverter());
    const out = await convert([cronTab("v1", "a"), cronTab("v2", "b"), cronTab("v1", "c")], "v2");
    expect(out.map((o) => [o.apiVersion, metadataOf(o).name, o.spec])).toEqual([
      ["stable.example.com/v2", "a", { schedule: "* * * * */5" }],
      ["stable.example.com/v2", "b", { schedule: "* * * * */5" }],
      ["stable.example.com/v2", "c", { schedule: "* * * * */5" }],
    ]);
    expect(webhook.reviews[0]?.request.objects.map((o) => metadataOf(o).name)).toEqual(["a", "c"]);
  });

  it("does not call the webhook when nothing needs converting", async () => {
    const { webhook, convert } = await converterFor(renamingConverter());
    const input = [cronTab("v2")];
    const out = await convert(input, "v2");
    expect(out).toEqual(input);
    expect(out[0]).not.toBe(input[0]);
    expect(webhook.reviews).toHaveLength(0);
    expect(await convert([], "v2")).toEqual([]);
  });

  it("rewrites an object with nothing but apiVersion and kind without asking", async () => {
    const { webhook, convert } = await converterFor(renamingConverter());
    const out = await convert([{ apiVersion: "stable.example.com/v1", kind: "CronTab" }], "v2");
    expect(out).toEqual([{ apiVersion: "stable.example.com/v2", kind: "CronTab" }]);
    expect(webhook.reviews).toHaveLength(0);
  });

  it("speaks v1beta1 when the webhook prefers it, without checking the uid", async () => {
    const handler = renamingConverter((answer) => {
      (answer.response as Record<string, unknown>).uid = "whatever";
    });
    const { webhook, convert } = await converterFor(handler, {}, ["v1beta2", "v1beta1", "v1"]);
    const out = await convert([cronTab("v1")], "v2");
    expect(out[0]?.spec).toEqual({ schedule: "* * * * */5" });
    expect(webhook.reviews[0]?.apiVersion).toBe("apiextensions.k8s.io/v1beta1");
  });

  it("fails without a review version it knows", async () => {
    const { convert } = await converterFor(renamingConverter(), {}, ["v2"]);
    expect((await failureOf(convert([cronTab("v1")], "v2"))).message).toBe("no supported conversion review versions");
  });

  it("keeps changed labels and annotations and restores the rest of the metadata", async () => {
    const handler = spoil((_, [obj]) => {
      const meta = metadataOf(obj);
      meta.labels = { app: "y", added: "yes" };
      meta.annotations = { note: "converted" };
      meta.resourceVersion = "99";
      meta.finalizers = ["x/y"];
    });
    const { convert } = await converterFor(handler);
    const [out] = await convert([cronTab("v1")], "v2");
    expect(out?.metadata).toEqual({
      name: "a",
      namespace: "default",
      uid: "uid-a",
      resourceVersion: "7",
      labels: { app: "y", added: "yes" },
      annotations: { note: "converted" },
    });
  });

  it("drops labels the webhook left out", async () => {
    const { convert } = await converterFor(spoil((_, [obj]) => delete metadataOf(obj).labels));
    const [out] = await convert([cronTab("v1")], "v2");
    expect(out?.metadata).toEqual({ name: "a", namespace: "default", uid: "uid-a", resourceVersion: "7" });
  });
});

describe("conversion webhook answers kube refuses", () => {
  it.each<[string, (response: Record<string, unknown>, objects: Record<string, unknown>[]) => void, string]>([
    ["another uid", (r) => (r.uid = "other"), 'expected response.uid=%UID%, got "other"'],
    [
      "a failure with a message",
      (r) => (r.result = { status: "Failure", message: "cannot convert" }),
      `${failedFor}cannot convert`,
    ],
    [
      "a failure without a message",
      (r) => (r.result = { status: "Failure" }),
      `${failedFor}response.result.status was 'Failure', not 'Success'`,
    ],
    ["too few objects", (r) => (r.convertedObjects = []), `${returnedFor}0 objects, expected 1`],
    [
      "another group/version",
      (_, [o]) => ((o as Record<string, unknown>).apiVersion = "stable.example.com/v1"),
      `${returnedFor}invalid object at index 0: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)`,
    ],
    [
      "another kind",
      (_, [o]) => ((o as Record<string, unknown>).kind = "Other"),
      `${returnedFor}invalid object at index 0: invalid kind (expected CronTab, received Other)`,
    ],
    [
      "another name",
      (_, [o]) => (metadataOf(o).name = "b"),
      `${returnedFor}invalid object: must have the same name: a != b`,
    ],
    [
      "another namespace",
      (_, [o]) => (metadataOf(o).namespace = "kube-system"),
      `${returnedFor}invalid object: must have the same namespace: default != kube-system`,
    ],
    [
      "another uid on the object",
      (_, [o]) => (metadataOf(o).uid = "uid-b"),
      `${returnedFor}invalid object: must have the same UID: uid-a != uid-b`,
    ],
    [
      "no metadata",
      (_, [o]) => delete (o as Record<string, unknown>).metadata,
      `${returnedFor}invalid object: must have the same name: a != `,
    ],
    [
      "an invalid label",
      (_, [o]) => (metadataOf(o).labels = { "bad key": "x" }),
      `${returnedFor}invalid metadata: metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
    [
      "a label that is not a string",
      (_, [o]) => (metadataOf(o).labels = { app: 5 }),
      `${returnedFor}invalid metadata: metadata.labels[app] must be a string, but is int64 in converted object`,
    ],
    [
      "annotations that are not a map",
      (_, [o]) => (metadataOf(o).annotations = ["x"]),
      `${returnedFor}invalid metadata: invalid metadata.annotations of type []interface {} in converted object`,
    ],
  ])("refuses %s", async (_, edit, expected) => {
    const webhook = spoil(edit);
    let uid = "";
    const message = await messageFor((review) => {
      uid = review.request.uid;
      return webhook(review);
    });
    expect(message).toBe(
      expected.includes("%UID%") ? `${failedFor}${expected.replace("%UID%", `"${uid}"`)}` : expected,
    );
  });

  it("refuses an answer that is not a v1 ConversionReview", async () => {
    const answer = { apiVersion: "apiextensions.k8s.io/v1beta1", kind: "ConversionReview", response: {} };
    expect(await messageFor(() => ({ body: answer }))).toBe(
      `${failedFor}expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview`,
    );
    expect(await messageFor(() => ({ body: { apiVersion: "apiextensions.k8s.io/v1" } }))).toBe(
      `${failedFor}Object 'Kind' is missing in '{"apiVersion":"apiextensions.k8s.io/v1"}'`,
    );
    expect(
      await messageFor(() => ({ body: { apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview" } })),
    ).toBe(`${failedFor}no response provided`);
  });

  it("words list failures with the list kind and kube's indexes", async () => {
    const objects = [cronTab("v1", "a"), cronTab("v2", "b"), cronTab("v1", "c")];
    const listFor = "conversion webhook for stable.example.com/v1, Kind=CronTabList returned ";
    expect(
      await messageFor(
        spoil((_, [, o]) => (metadataOf(o).name = "z")),
        objects,
      ),
    ).toBe(`${listFor}invalid converted object at index 2: must have the same name: c != z`);
    expect(
      await messageFor(
        spoil((_, [o]) => (metadataOf(o).labels = { app: 1 })),
        objects,
      ),
    ).toBe(
      `${listFor}invalid metadata in object at index 1: metadata.labels[app] must be a string, but is int64 in converted object`,
    );
    expect(
      await messageFor(
        spoil((r) => (r.convertedObjects = ["x", {}])),
        objects,
      ),
    ).toBe(
      `${listFor}invalid converted object at index 0: json: cannot unmarshal string into Go value of type map[string]interface {}`,
    );
  });
});

describe("conversion webhook calls that fail", () => {
  it("reports the Status a webhook fails with", async () => {
    const status = { kind: "Status", apiVersion: "v1", status: "Failure", message: "conversion is broken", code: 500 };
    expect(await messageFor(() => ({ status: 500, body: status }))).toBe(`${failedFor}conversion is broken`);
  });

  it("words other failed answers as client-go does", async () => {
    expect(await messageFor(() => ({ status: 404, raw: "" }))).toBe(
      `${failedFor}the server could not find the requested resource`,
    );
    expect(await messageFor(() => ({ status: 500, raw: "boom\n", contentType: "text/plain" }))).toBe(
      `${failedFor}an error on the server ("boom") has prevented the request from succeeding`,
    );
    expect(await messageFor(() => ({ status: 200, raw: "" }))).toBe(
      `${failedFor}0-length response with status code: 200 and content type: application/json`,
    );
    expect(await messageFor(() => ({ status: 200, raw: "<html/>", contentType: "text/html" }))).toBe(
      `${failedFor}serializer for text/html doesn't exist`,
    );
  });

  it("gives up after the timeout", async () => {
    const { webhook, convert } = await converterFor((review) => ({ ...renamingConverter()(review), delayMs: 2_000 }), {
      timeoutMs: 200,
    });
    const started = Date.now();
    const error = await failureOf(convert([cronTab("v1")], "v2"));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(error.message).toBe(
      `${failedFor}Post "${webhook.origin}/convert?timeout=200ms": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    );
  });

  it("gives up on an answer whose body stalls past the timeout", async () => {
    const { webhook, convert } = await converterFor(
      (review) => ({ ...renamingConverter()(review), stallBodyMs: 2_000 }),
      {
        timeoutMs: 300,
      },
    );
    const error = await failureOf(convert([cronTab("v1")], "v2"));
    expect(error.message).toBe(
      `${failedFor}Post "${webhook.origin}/convert?timeout=300ms": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    );
  });

  it("trusts only the CRD's caBundle", async () => {
    const webhook = await startConversionWebhook(renamingConverter());
    const converter = customResourceConverter(crd({ url: `${webhook.origin}/convert` }), {
      resolveService: noServices,
    });
    expect((await failureOf(converter.convert([cronTab("v1")], "v2"))).message).toBe(
      `${failedFor}Post "${webhook.origin}/convert?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });

  it("reports a refused connection", async () => {
    const converter = customResourceConverter(crd({ url: "https://127.0.0.1:1/convert" }), {
      resolveService: noServices,
    });
    expect((await failureOf(converter.convert([cronTab("v1")], "v2"))).message).toBe(
      `${failedFor}Post "https://127.0.0.1:1/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused`,
    );
  });
});

describe("service references", () => {
  const service = (name: string, port?: number) => ({
    service: { namespace: "webhooks", name, path: "/convert", ...(port === undefined ? {} : { port }) },
  });

  /** A resolver that records what it is asked and sends every service to `port` on 127.0.0.1. */
  function resolverTo(port: number): { resolve: ServiceEndpointResolver; asked: unknown[][] } {
    const asked: unknown[][] = [];
    const resolve: ServiceEndpointResolver = async (namespace, name, servicePort) => {
      asked.push([namespace, name, servicePort]);
      return { host: "127.0.0.1", port };
    };
    return { resolve, asked };
  }

  it("are resolved on every call and reached at the endpoint under the service's name", async () => {
    const webhook = await startConversionWebhook(renamingConverter());
    const { resolve, asked } = resolverTo(webhook.port);
    const converter = customResourceConverter(crd({ ...service("convert", 8443), caBundle: webhook.caBundle }), {
      resolveService: resolve,
    });
    expect(asked).toEqual([]);
    const [out] = await converter.convert([cronTab("v1")], "v2");
    expect(out?.spec).toEqual({ schedule: "* * * * */5" });
    await converter.convert([cronTab("v2")], "v1");
    expect(asked).toEqual([
      ["webhooks", "convert", 8443],
      ["webhooks", "convert", 8443],
    ]);
    expect(webhook.paths).toEqual(["/convert?timeout=30s", "/convert?timeout=30s"]);
    expect(webhook.hosts).toEqual(["convert.webhooks.svc:8443", "convert.webhooks.svc:8443"]);
  });

  it("check the certificate for the service's name, showing its port 443", async () => {
    const webhook = await startConversionWebhook(renamingConverter());
    const { resolve, asked } = resolverTo(webhook.port);
    const converter = customResourceConverter(crd({ ...service("other"), caBundle: webhook.caBundle }), {
      resolveService: resolve,
    });
    expect((await failureOf(converter.convert([cronTab("v1")], "v2"))).message).toBe(
      `${failedFor}Post "https://other.webhooks.svc:443/convert?timeout=30s": tls: failed to verify certificate: x509: certificate is valid for localhost, convert.webhooks.svc, not other.webhooks.svc`,
    );
    expect(asked).toEqual([["webhooks", "other", 443]]);
  });

  it("fail with the resolver's reason, as kube's dialer returns it", async () => {
    const resolveService: ServiceEndpointResolver = (_, name) =>
      Promise.reject(serviceUnavailable(`no endpoints available for service "${name}"`));
    const converter = customResourceConverter(crd(service("convert")), { resolveService });
    const error = await failureOf(converter.convert([cronTab("v1")], "v2"));
    expect([error.code, error.status.reason, error.message]).toEqual([
      500,
      undefined,
      `${failedFor}Post "https://convert.webhooks.svc:443/convert?timeout=30s": no endpoints available for service "convert"`,
    ]);
  });

  it("report a refused connection at the endpoint they resolve to", async () => {
    const converter = customResourceConverter(crd(service("convert")), { resolveService: resolverTo(1).resolve });
    expect((await failureOf(converter.convert([cronTab("v1")], "v2"))).message).toBe(
      `${failedFor}Post "https://convert.webhooks.svc:443/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused`,
    );
  });
});
