import { describe, expect, it } from "vitest";
import { createErrors, definition, specOf } from "./fixtures.js";

const form = "; desired format: https://host[/path]";

function withConversion(conversion: Record<string, unknown>): Record<string, unknown> {
  const crd = definition();
  specOf(crd).conversion = conversion;
  return crd;
}

describe("CustomResourceDefinition conversion", () => {
  it("accepts a webhook with a service or an https URL", () => {
    const service = { namespace: "default", name: "converter", path: "/convert" };
    expect(
      createErrors(
        withConversion({
          strategy: "Webhook",
          webhook: { clientConfig: { service }, conversionReviewVersions: ["v1"] },
        }),
      ),
    ).toEqual([]);
    const url = "https://127.0.0.1:8443/convert";
    expect(
      createErrors(
        withConversion({
          strategy: "Webhook",
          webhook: { clientConfig: { url }, conversionReviewVersions: ["v1beta1"] },
        }),
      ),
    ).toEqual([]);
  });

  it("defaults the service port to 443", () => {
    const crd = withConversion({
      strategy: "Webhook",
      webhook: {
        clientConfig: { service: { namespace: "default", name: "converter" } },
        conversionReviewVersions: ["v1"],
      },
    });
    createErrors(crd);
    expect(specOf(crd).conversion).toMatchObject({ webhook: { clientConfig: { service: { port: 443 } } } });
  });

  it("rejects unknown strategies", () => {
    expect(createErrors(withConversion({ strategy: "Magic" }))).toEqual([
      'spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"',
    ]);
  });

  it("requires the webhook's client config, at kube's internal paths", () => {
    expect(createErrors(withConversion({ strategy: "Webhook" }))).toEqual([
      "spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
      "spec.conversion.conversionReviewVersions: Required value",
    ]);
    const both = { url: "https://a.example", service: { namespace: "default", name: "converter" } };
    expect(
      createErrors(
        withConversion({ strategy: "Webhook", webhook: { clientConfig: both, conversionReviewVersions: ["v1"] } }),
      ),
    ).toEqual(["spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required"]);
  });

  it("checks the webhook URL", () => {
    const crd = withConversion({
      strategy: "Webhook",
      webhook: { clientConfig: { url: "http://user@example.com/x?a=b#frag" }, conversionReviewVersions: ["v2", "v2"] },
    });
    const url = "spec.conversion.webhookClientConfig.url";
    expect(createErrors(crd)).toEqual([
      `${url}: Invalid value: "http": 'https' is the only allowed URL scheme${form}`,
      `${url}: Invalid value: "user": user information is not permitted in the URL`,
      `${url}: Invalid value: "frag": fragments are not permitted in the URL`,
      `${url}: Invalid value: "a=b": query parameters are not permitted in the URL`,
      'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, v1beta1',
    ]);
  });

  it("checks the webhook service", () => {
    const service = { namespace: "", name: "converter", port: 0, path: "convert//x" };
    const crd = withConversion({
      strategy: "Webhook",
      webhook: { clientConfig: { service }, conversionReviewVersions: ["v1"] },
    });
    const at = "spec.conversion.webhookClientConfig.service";
    expect(createErrors(crd)).toEqual([
      `${at}.namespace: Required value: service namespace is required`,
      `${at}.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive`,
      `${at}.path: Invalid value: "convert//x": must start with a '/'`,
      `${at}.path: Invalid value: "convert//x": segment[1] may not be empty`,
    ]);
  });

  it("forbids webhook settings with strategy None", () => {
    const crd = withConversion({
      strategy: "None",
      webhook: { clientConfig: { url: "https://a.example" }, conversionReviewVersions: ["v1"] },
    });
    expect(createErrors(crd)).toEqual([
      "spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook",
      "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook",
    ]);
  });
});
