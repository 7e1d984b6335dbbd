// The CustomResourceDefinition strategy through the generated registry (defaults, storage version,
// kube's validation) and over HTTP: a bad definition is refused with 422 and kube's causes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { definition, specOf } from "../crd/definition/fixtures.js";
import { created, createErrors, type Kind, strategyOf, updateErrors } from "./write-path.js";

const CRD: Kind = ["apiextensions.k8s.io", "v1", "CustomResourceDefinition"];

/** The fixture definition with only the names kube requires, for the strategy to default the rest. */
function crd(schema: Record<string, unknown> = { type: "object" }): Record<string, unknown> {
  const obj = definition(schema);
  specOf(obj).names = { plural: "widgets", kind: "Widget" };
  return obj;
}

const badSchema = { type: "object", properties: { spec: { properties: { size: { type: "integer" } } } } };
const missingType =
  "spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields";

describe("CustomResourceDefinition strategy", () => {
  it("defaults names and conversion and records the storage version", () => {
    const obj = created(CRD, crd());
    expect(obj.spec).toMatchObject({
      names: { singular: "widget", listKind: "WidgetList" },
      conversion: { strategy: "None" },
    });
    expect(obj.status).toEqual({ storedVersions: ["v1"] });
    expect(createErrors(CRD, crd())).toEqual([]);
  });

  it("refuses PUT without a resourceVersion", () => {
    expect(strategyOf(CRD).allowUnconditionalUpdate).toBe(false);
  });

  it("names the offending schema nodes", () => {
    expect(createErrors(CRD, crd(badSchema))).toEqual([missingType]);
  });

  it("validates updates against the stored definition", () => {
    const old = created(CRD, crd());
    const next = crd();
    (next.spec as Record<string, unknown>).group = "example.org";
    expect(updateErrors(CRD, next, old)).toEqual(['spec.group: Invalid value: "example.org": field is immutable']);
  });
});

describe("CustomResourceDefinition over HTTP", () => {
  const token = "crd-definition-token";
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, controllers: false, adminToken: token });
  });
  afterAll(() => server.close());

  async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(server.url + path, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it("refuses a non-structural schema with 422 and kube's causes", async () => {
    const res = await post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd(badSchema));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      kind: "Status",
      reason: "Invalid",
      message: `CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: ${missingType}`,
      details: {
        causes: [
          {
            reason: "FieldValueRequired",
            field: "spec.validation.openAPIV3Schema.properties[spec].type",
            message: "Required value: must not be empty for specified object fields",
          },
        ],
      },
    });
  });
});
