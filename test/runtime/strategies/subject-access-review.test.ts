// SubjectAccessReview, SelfSubjectAccessReview and LocalSubjectAccessReview against a scripted authorizer:
// the attributes asked, the status answered, and kube's validation texts.
import { describe, expect, it } from "vitest";
import { StatusError } from "../../../runtime/errors/status-error.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import type { Strategy } from "../../../runtime/registry/strategy.js";
import { strategy as localReview } from "../../../runtime/strategies/local-subject-access-review.js";
import { strategy as selfReview } from "../../../runtime/strategies/self-subject-access-review.js";
import { strategy as subjectReview } from "../../../runtime/strategies/subject-access-review.js";
import { answer, fakeHookRequest, jane, type Scripted } from "./fake-hook-request.js";

const sar = (spec: Record<string, unknown>, metadata?: Record<string, unknown>): KubeObject => ({
  apiVersion: "authorization.k8s.io/v1",
  kind: "SubjectAccessReview",
  ...(metadata && { metadata }),
  spec,
});

async function refusal(strategy: Strategy, obj: KubeObject, namespace?: string): Promise<StatusError> {
  const error = await answer(strategy, obj, fakeHookRequest({}, jane, namespace).request).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StatusError);
  return error as StatusError;
}

async function invalidMessage(strategy: Strategy, obj: KubeObject, namespace?: string): Promise<string> {
  const error = await refusal(strategy, obj, namespace);
  expect(error.status.code).toBe(422);
  expect(error.status.reason).toBe("Invalid");
  return error.status.message;
}

async function asked(spec: Record<string, unknown>, script: Scripted = {}) {
  const fake = fakeHookRequest(script);
  const answered = await answer(subjectReview, sar(spec), fake.request);
  return { attributes: fake.asked[0], answered };
}

describe("SubjectAccessReview", () => {
  it("asks the authorizer about the spec's user and resource, every version when none is named", async () => {
    // In Go's field order, as the answer echoes it.
    const scale = {
      namespace: "ns",
      verb: "get",
      group: "apps",
      resource: "deployments",
      subresource: "scale",
      name: "d",
    };
    const { attributes, answered } = await asked(
      {
        user: "bob",
        groups: ["g"],
        uid: "7",
        extra: { "z/k": ["1"], a: ["2"] },
        resourceAttributes: scale,
      },
      { decision: { decision: "allow", reason: "by rule" } },
    );
    expect(attributes).toEqual({
      user: { name: "bob", groups: ["g"], uid: "7", extra: { a: ["2"], "z/k": ["1"] } },
      verb: "get",
      resourceRequest: true,
      apiGroup: "apps",
      apiVersion: "*",
      resource: "deployments",
      subresource: "scale",
      namespace: "ns",
      name: "d",
      path: "",
    });
    expect(answered).toEqual({
      kind: "SubjectAccessReview",
      apiVersion: "authorization.k8s.io/v1",
      metadata: {},
      spec: {
        resourceAttributes: scale,
        user: "bob",
        groups: ["g"],
        extra: { a: ["2"], "z/k": ["1"] },
        uid: "7",
      },
      status: { allowed: true, reason: "by rule" },
    });
  });

  it("answers a path check, a deny and an authorizer's error as kube fills the status", async () => {
    const denied = await asked(
      { groups: ["g"], nonResourceAttributes: { path: "/metrics", verb: "get" } },
      { decision: { decision: "deny", reason: "no", error: "webhook down" } },
    );
    expect(denied.attributes).toMatchObject({ resourceRequest: false, path: "/metrics", verb: "get", apiVersion: "" });
    expect(denied.answered.status).toEqual({
      allowed: false,
      denied: true,
      reason: "no",
      evaluationError: "webhook down",
    });
    const none = await asked({ user: "bob", nonResourceAttributes: { path: "/x", verb: "get" } });
    expect(none.answered.status).toEqual({ allowed: false });
    expect(none.answered.spec).toEqual({ nonResourceAttributes: { path: "/x", verb: "get" }, user: "bob" });
  });

  it("refuses a spec without attributes or subject with kube's texts", async () => {
    const error = await refusal(subjectReview, sar({}));
    expect(error.status.message).toBe(
      '.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    );
    expect(error.status.details).toEqual({
      group: "authorization.k8s.io",
      causes: [
        {
          reason: "FieldValueInvalid",
          message:
            'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
          field: "spec.resourceAttributes",
        },
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: "": at least one of user or group must be specified',
          field: "spec.user",
        },
      ],
    });
  });

  it("refuses both kinds of attributes and set metadata", async () => {
    expect(
      await invalidMessage(
        subjectReview,
        sar({ user: "u", resourceAttributes: {}, nonResourceAttributes: { path: "/x", verb: "get" } }, { name: "n" }),
      ),
    ).toBe(
      '.authorization.k8s.io "" is invalid: [spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes, metadata: Invalid value: {"name":"n"}: must be empty]',
    );
    // What clients send for empty metadata is empty; managedFields are not looked at.
    const fake = fakeHookRequest();
    await answer(
      subjectReview,
      sar({ user: "u", resourceAttributes: {} }, { creationTimestamp: null, managedFields: [{ manager: "m" }] }),
      fake.request,
    );
    expect(fake.asked).toHaveLength(1);
  });

  it("validates selector attributes, letting unknown operators through", async () => {
    const withSelectors = (resourceAttributes: Record<string, unknown>) =>
      invalidMessage(
        subjectReview,
        sar({ user: "u", resourceAttributes: { verb: "list", resource: "pods", ...resourceAttributes } }),
      );
    expect(await withSelectors({ fieldSelector: {}, labelSelector: {} })).toBe(
      '.authorization.k8s.io "" is invalid: [spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required, spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required]',
    );
    expect(
      await withSelectors({
        fieldSelector: {
          rawSelector: "a=b",
          requirements: [{ operator: "In" }, { key: "k", operator: "Exists", values: ["v"] }],
        },
      }),
    ).toBe(
      ".authorization.k8s.io \"\" is invalid: [spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: \"a=b\": may not specified at the same time as requirements, spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified, spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn', spec.resourceAttributes.fieldSelector.requirements[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist']",
    );
    expect(
      await withSelectors({
        labelSelector: { requirements: [{ key: "-bad", operator: "In", values: ["ok", "no way"] }] },
      }),
    ).toBe(
      ".authorization.k8s.io \"\" is invalid: [spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.resourceAttributes.labelSelector.requirements[0].values[1]: Invalid value: \"no way\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
    );
    const unknown = await asked({
      user: "u",
      resourceAttributes: {
        verb: "list",
        resource: "pods",
        fieldSelector: { requirements: [{ key: "k", operator: "Newer" }] },
      },
    });
    expect(unknown.answered.status).toEqual({
      allowed: false,
      evaluationError: "spec.resourceAttributes.fieldSelector ignored due to parse error",
    });
    expect(unknown.attributes?.fieldSelector).toEqual({ error: '"Newer" is not a valid field selector operator' });
  });

  it("hands selectors to the authorizer as AuthorizeWithSelectors does", async () => {
    const { attributes, answered } = await asked(
      {
        user: "u",
        resourceAttributes: {
          verb: "list",
          resource: "pods",
          fieldSelector: {
            requirements: [
              { key: "spec.nodeName", operator: "In", values: ["n1"] },
              { key: "status.phase", operator: "NotIn", values: ["Failed"] },
              { key: "x", operator: "Exists" },
            ],
          },
          labelSelector: { rawSelector: "app=web,tier in (a,b)" },
        },
      },
      { decision: { decision: "allow", reason: "", error: "partial" } },
    );
    expect(attributes?.fieldSelector).toEqual({
      requirements: [
        { field: "spec.nodeName", operator: "=", value: "n1" },
        { field: "status.phase", operator: "!=", value: "Failed" },
      ],
      error: "fieldSelectors do not yet support Exists",
    });
    expect(attributes?.labelSelector).toEqual({
      requirements: [
        { key: "app", operator: "=", values: ["web"] },
        { key: "tier", operator: "in", values: ["a", "b"] },
      ],
    });
    expect(answered.status).toEqual({
      allowed: true,
      evaluationError: "partial; spec.resourceAttributes.fieldSelector partially ignored due to parse error",
    });
    const raw = await asked({
      user: "u",
      resourceAttributes: {
        verb: "list",
        fieldSelector: { rawSelector: "spec.nodeName=n1" },
        labelSelector: {
          requirements: [
            { key: "a", operator: "Maybe" },
            { key: "b", operator: "Gt", values: ["1"] },
          ],
        },
      },
    });
    expect(raw.attributes?.fieldSelector).toEqual({
      requirements: [{ field: "spec.nodeName", operator: "=", value: "n1" }],
    });
    expect(raw.attributes?.labelSelector).toEqual({
      error: '["Maybe" is not a valid label selector operator, "Gt" is not a valid label selector operator]',
    });
    expect(raw.answered.status).toEqual({
      allowed: false,
      evaluationError: "spec.resourceAttributes.labelSelector ignored due to parse error",
    });
  });
});

describe("SelfSubjectAccessReview", () => {
  it("asks about the caller", async () => {
    const fake = fakeHookRequest({ decision: { decision: "allow", reason: "" } });
    const answered = await answer(
      selfReview,
      {
        kind: "SelfSubjectAccessReview",
        spec: { resourceAttributes: { verb: "create", resource: "pods", namespace: "ns" } },
      },
      fake.request,
    );
    expect(fake.asked[0]).toMatchObject({
      user: jane,
      verb: "create",
      resource: "pods",
      namespace: "ns",
      apiVersion: "*",
    });
    expect(answered).toEqual({
      kind: "SelfSubjectAccessReview",
      apiVersion: "authorization.k8s.io/v1",
      metadata: {},
      spec: { resourceAttributes: { namespace: "ns", verb: "create", resource: "pods" } },
      status: { allowed: true },
    });
  });

  it("needs attributes but no subject", async () => {
    expect(await invalidMessage(selfReview, { spec: {} })).toBe(
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
  });
});

describe("LocalSubjectAccessReview", () => {
  const local = (spec: Record<string, unknown>, metadata?: Record<string, unknown>): KubeObject => ({
    kind: "LocalSubjectAccessReview",
    ...(metadata && { metadata }),
    spec,
  });

  it("checks in the namespace it is posted to, which it answers in its metadata", async () => {
    const fake = fakeHookRequest({ decision: { decision: "allow", reason: "" } }, jane, "ns1");
    const answered = await answer(
      localReview,
      local({ user: "bob", resourceAttributes: { namespace: "ns1", verb: "get", resource: "pods" } }),
      fake.request,
    );
    expect(fake.asked[0]).toMatchObject({ user: { name: "bob", groups: [] }, namespace: "ns1" });
    expect(answered).toMatchObject({
      kind: "LocalSubjectAccessReview",
      metadata: { namespace: "ns1" },
      status: { allowed: true },
    });
  });

  it("refuses an empty namespace and path checks", async () => {
    expect(await invalidMessage(localReview, local({ user: "bob", resourceAttributes: { verb: "get" } }), "ns1")).toBe(
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "": must match metadata.namespace',
    );
    expect(
      await invalidMessage(
        localReview,
        local({ user: "bob", nonResourceAttributes: { path: "/x" } }, { name: "n" }),
        "ns1",
      ),
    ).toBe(
      '.authorization.k8s.io "" is invalid: [metadata: Invalid value: {"name":"n"}: must be empty except for namespace, spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:""}: disallowed on this kind of request]',
    );
  });
});
