// LimitRange validation (kube's ValidateLimitRange) and defaulting, through raw HTTP. Every expected Status
// was recorded from a reference kube-apiserver v1.36.2 given the same object (POST …/limitranges?dryRun=All).
// kube visits a limit's resources in map order; these objects have at most one failing resource per limit
// wherever the order would show.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../runtime/index.js";

const path = "/api/v1/namespaces/default/limitranges";

const limitRange = (name: string, limits: unknown[]) => ({
  apiVersion: "v1",
  kind: "LimitRange",
  metadata: { name },
  spec: { limits },
});

describe("LimitRange validation", () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startServer({ listen: false });
  });
  afterAll(() => server?.close());

  async function post(body: unknown, query = "?dryRun=All") {
    const response = await server.request({
      method: "POST",
      path: `${path}${query}`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { code: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const cause = (reason: string, field: string, message: string) => ({ reason, message, field });

  it("orders the bounds: min ≤ defaultRequest ≤ default ≤ max, ratio ≥ 1", async () => {
    const { code, body } = await post(
      limitRange("bad1", [
        {
          type: "Container",
          max: { cpu: "1" },
          min: { cpu: "2" },
          default: { cpu: "3" },
          defaultRequest: { cpu: "500m" },
          maxLimitRequestRatio: { cpu: "500m" },
        },
      ]),
    );
    expect(code).toBe(422);
    expect(body.message).toBe(
      'LimitRange "bad1" is invalid: [spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1, ' +
        'spec.limits[0].defaultRequest[cpu]: Invalid value: "500m": min value 2 is greater than default request value 500m, ' +
        'spec.limits[0].default[cpu]: Invalid value: "1": default value 3 is greater than max value 1, ' +
        'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1]',
    );
    expect(body.details).toEqual({
      name: "bad1",
      kind: "LimitRange",
      causes: [
        cause(
          "FieldValueInvalid",
          "spec.limits[0].min[cpu]",
          'Invalid value: "2": min value 2 is greater than max value 1',
        ),
        cause(
          "FieldValueInvalid",
          "spec.limits[0].defaultRequest[cpu]",
          'Invalid value: "500m": min value 2 is greater than default request value 500m',
        ),
        cause(
          "FieldValueInvalid",
          "spec.limits[0].default[cpu]",
          'Invalid value: "1": default value 3 is greater than max value 1',
        ),
        cause(
          "FieldValueInvalid",
          "spec.limits[0].maxLimitRequestRatio[cpu]",
          'Invalid value: "500m": ratio 500m is less than 1',
        ),
      ],
    });
  });

  it("checks types, resource names, Pod defaults and claim bounds", async () => {
    const { body } = await post(
      limitRange("bad2", [
        { type: "Pod", default: { cpu: "1" }, defaultRequest: { cpu: "1" }, max: { foo: "1" } },
        { type: "Pod" },
        { type: "Weird" },
        { type: "example.com/x", max: { storage: "1" } },
        { type: "PersistentVolumeClaim" },
      ]),
    );
    expect(body.message).toBe(
      'LimitRange "bad2" is invalid: [spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, ' +
        'spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource for containers, ' +
        "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod', " +
        "spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod', " +
        'spec.limits[1].type: Duplicate value: "Pod", ' +
        'spec.limits[2].type: Invalid value: "Weird": must be a standard limit type or fully qualified, ' +
        "spec.limits[4].limits: Required value: either minimum or maximum storage value is required, but neither was provided]",
    );
  });

  it("bounds the ratio by max/min and holds non-overcommitted resources to default = defaultRequest", async () => {
    const { body } = await post(
      limitRange("bad3", [
        {
          type: "Container",
          max: { cpu: "1", "nvidia.com/gpu": "2" },
          min: { cpu: "100m" },
          default: { "nvidia.com/gpu": "2" },
          defaultRequest: { "nvidia.com/gpu": "1" },
          maxLimitRequestRatio: { cpu: "20" },
        },
      ]),
    );
    expect(body.message).toBe(
      'LimitRange "bad3" is invalid: [spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "20": ratio 20 is greater than max/min = 10.000000, ' +
        'spec.limits[0].defaultRequest[nvidia.com/gpu]: Invalid value: "1": default value 2 must equal to defaultRequest value 1 in nvidia.com/gpu]',
    );
  });

  it("checks the defaults it derived from max, and takes hugepages, extended resources and negative values", async () => {
    const { body } = await post(
      limitRange("bad4", [
        {
          type: "Container",
          max: { memory: "1Gi", "hugepages-2Mi": "1Gi", "example.com/foo": "1" },
          min: { memory: "2Gi" },
        },
      ]),
    );
    expect(body.message).toBe(
      'LimitRange "bad4" is invalid: [spec.limits[0].min[memory]: Invalid value: "2Gi": min value 2Gi is greater than max value 1Gi, ' +
        'spec.limits[0].defaultRequest[memory]: Invalid value: "1Gi": min value 2Gi is greater than default request value 1Gi, ' +
        'spec.limits[0].default[memory]: Invalid value: "2Gi": min value 2Gi is greater than default value 1Gi]',
    );
    const negative = await post(
      limitRange("bad5", [{ type: "Container", max: { cpu: "-1" }, min: { cpu: "-2" } }, { type: "Container" }]),
    );
    expect(negative.body.message).toBe(
      'LimitRange "bad5" is invalid: spec.limits[1].type: Duplicate value: "Container"',
    );
  });

  it("defaults a Container limit's default and defaultRequest", async () => {
    const { code, body } = await post(
      limitRange("ok", [
        { type: "Container", max: { cpu: "1", memory: "1Gi" }, min: { cpu: "100m", memory: "100Mi" } },
      ]),
      "",
    );
    expect(code).toBe(201);
    expect((body.spec as { limits: unknown[] }).limits).toEqual([
      {
        type: "Container",
        max: { cpu: "1", memory: "1Gi" },
        min: { cpu: "100m", memory: "100Mi" },
        default: { cpu: "1", memory: "1Gi" },
        defaultRequest: { cpu: "1", memory: "1Gi" },
      },
    ]);
  });
});
