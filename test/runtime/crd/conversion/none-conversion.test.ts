import { describe, expect, it } from "vitest";
import { customResourceConverter } from "../../../../runtime/crd/conversion/custom-resource-converter.js";
import { StatusError } from "../../../../runtime/errors/status-error.js";
import { noServices } from "./conversion-webhook-server.js";

const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "crontabs.stable.example.com" },
  spec: {
    group: "stable.example.com",
    names: { kind: "CronTab", plural: "crontabs" },
    scope: "Namespaced",
    versions: [
      { name: "v1", served: true, storage: true },
      { name: "v2", served: true, storage: false },
    ],
  },
};

const cronTab = (version: string, name = "a") => ({
  apiVersion: `stable.example.com/${version}`,
  kind: "CronTab",
  metadata: { name, namespace: "default", uid: `uid-${name}` },
  spec: { cronSpec: "* * * * */5" },
});

/** What `fn` throws, which must be a StatusError. */
function thrownBy(fn: () => unknown): StatusError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(StatusError);
  return thrown as StatusError;
}

describe("conversion strategy None", () => {
  const converter = customResourceConverter(crd, { resolveService: noServices });

  it("rewrites only apiVersion, on a copy, keeping the key order", () => {
    const input = cronTab("v1");
    const out = converter.convertSync?.(input, "v2");
    expect(out).toEqual({ ...cronTab("v1"), apiVersion: "stable.example.com/v2" });
    expect(Object.keys(out ?? {})).toEqual(["apiVersion", "kind", "metadata", "spec"]);
    expect(input.apiVersion).toBe("stable.example.com/v1");
    expect(out?.metadata).not.toBe(input.metadata);
  });

  it("returns objects already in the version as copies", () => {
    const input = cronTab("v2");
    const out = converter.convertSync?.(input, "v2");
    expect(out).toEqual(input);
    expect(out).not.toBe(input);
  });

  it("converts a list asynchronously, in order", async () => {
    const out = await converter.convert([cronTab("v1", "a"), cronTab("v2", "b"), cronTab("v1", "c")], "v2");
    expect(out.map((o) => [o.apiVersion, (o.metadata as { name: string }).name])).toEqual([
      ["stable.example.com/v2", "a"],
      ["stable.example.com/v2", "b"],
      ["stable.example.com/v2", "c"],
    ]);
  });

  it("is the strategy when the CRD names none", () => {
    const explicit = customResourceConverter(
      { ...crd, spec: { ...crd.spec, conversion: { strategy: "None" } } },
      { resolveService: noServices },
    );
    expect(explicit.convertSync?.(cronTab("v2"), "v1").apiVersion).toBe("stable.example.com/v1");
  });

  it("refuses versions the CRD does not declare with kube's 500 and text", async () => {
    const target = thrownBy(() => converter.convertSync?.(cronTab("v1"), "v3"));
    expect(target.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "request to convert CR to an invalid group/version: stable.example.com/v3",
      code: 500,
    });
    expect(thrownBy(() => converter.convertSync?.({ ...cronTab("v1"), apiVersion: "other.io/v1" }, "v2")).message).toBe(
      "request to convert CR from an invalid group/version: other.io/v1",
    );
    await expect(converter.convert([cronTab("v1"), cronTab("v9")], "v2")).rejects.toThrow(
      "request to convert CR list failed, list index 1 has invalid group/version: stable.example.com/v9",
    );
  });

  it("refuses an unknown strategy when it is built", () => {
    const error = thrownBy(() =>
      customResourceConverter(
        { ...crd, spec: { ...crd.spec, conversion: { strategy: "Magic" } } },
        { resolveService: noServices },
      ),
    );
    expect(error.code).toBe(500);
    expect(error.message).toBe(
      'Internal error occurred: unknown conversion strategy "Magic" for CRD crontabs.stable.example.com',
    );
  });

  it("has no synchronous form for the webhook strategy", () => {
    const webhook = customResourceConverter(
      {
        ...crd,
        spec: {
          ...crd.spec,
          conversion: {
            strategy: "Webhook",
            webhook: { clientConfig: { url: "https://127.0.0.1:1/convert" }, conversionReviewVersions: ["v1"] },
          },
        },
      },
      { resolveService: noServices },
    );
    expect(webhook.convertSync).toBeUndefined();
  });
});
