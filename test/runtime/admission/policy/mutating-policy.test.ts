// MutatingAdmissionPolicy end to end: policies and bindings written through the API, objects created over
// the server's request pipeline. The expected objects and Status texts are kube-apiserver v1.36.2's answers
// to the same policies (recorded on the reference with ConfigMaps and Deployments of our own labels).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InProcessServer } from "../../../../runtime/index.js";
import {
  bindingsPath,
  configMapRule,
  mutatingPolicy,
  policiesPath,
  policyBinding,
  send,
  startWithMutatingPolicies,
} from "./mutating-policy-helpers.js";

let server: InProcessServer;
beforeAll(async () => {
  server = await startWithMutatingPolicies();
});
afterAll(() => server.close());

async function install(name: string, spec: Record<string, unknown>, binding: Record<string, unknown> = {}) {
  expect((await send(server, "POST", policiesPath, mutatingPolicy(name, spec))).status).toBe(201);
  const bound = await send(server, "POST", bindingsPath, policyBinding(name, { policyName: name, ...binding }));
  expect(bound.status).toBe(201);
}

function configMap(name: string, test: string, data: Record<string, string> = {}): object {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, labels: { "d-map-test": test } }, data };
}

const createConfigMap = (body: object) => send(server, "POST", "/api/v1/namespaces/default/configmaps", body);

describe("MutatingAdmissionPolicy", () => {
  it("merges an ApplyConfiguration into the object", async () => {
    await install("apply", {
      matchConstraints: { ...configMapRule, objectSelector: { matchLabels: { "d-map-test": "apply" } } },
      mutations: [
        {
          patchType: "ApplyConfiguration",
          applyConfiguration: {
            expression: `Object{metadata: Object.metadata{labels: {"mutated": "yes"}}, data: {"added": "v"}}`,
          },
        },
      ],
    });
    const created = await createConfigMap(configMap("cm-apply", "apply", { orig: "1" }));
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ added: "v", orig: "1" });
    expect((created.body.metadata as { labels: unknown }).labels).toEqual({ "d-map-test": "apply", mutated: "yes" });
  });

  it("applies a JSONPatch that adds a container env var and an escaped label key", async () => {
    await install("jsonpatch", {
      matchConstraints: {
        resourceRules: [
          { apiGroups: ["apps"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["deployments"] },
        ],
        objectSelector: { matchLabels: { "d-map-test": "jsonpatch" } },
      },
      mutations: [
        {
          patchType: "JSONPatch",
          jsonPatch: {
            expression: `[JSONPatch{op: "add", path: "/spec/template/spec/containers/0/env", value: [{"name": "ADDED", "value": "1"}]},
              JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/x"), value: "z"}]`,
          },
        },
      ],
    });
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "dep", labels: { "d-map-test": "jsonpatch" } },
      spec: {
        selector: { matchLabels: { app: "d" } },
        template: { metadata: { labels: { app: "d" } }, spec: { containers: [{ name: "c", image: "busybox" }] } },
      },
    };
    const created = await send(server, "POST", "/apis/apps/v1/namespaces/default/deployments", deployment);
    expect(created.status).toBe(201);
    const spec = created.body.spec as { template: { spec: { containers: { env?: unknown }[] } } };
    expect(spec.template.spec.containers[0]?.env).toEqual([{ name: "ADDED", value: "1" }]);
    expect((created.body.metadata as { labels: unknown }).labels).toEqual({
      "d-map-test": "jsonpatch",
      "example.com/x": "z",
    });
  });

  it("reads params and honours match conditions", async () => {
    const params = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "map-params" }, data: { team: "blue" } };
    expect((await createConfigMap(params)).status).toBe(201);
    await install(
      "params",
      {
        paramKind: { apiVersion: "v1", kind: "ConfigMap" },
        matchConstraints: { ...configMapRule, objectSelector: { matchLabels: { "d-map-test": "params" } } },
        matchConditions: [{ name: "not-skipped", expression: `!("skip" in object.data)` }],
        variables: [{ name: "team", expression: "params.data.team" }],
        mutations: [
          {
            patchType: "ApplyConfiguration",
            applyConfiguration: {
              expression: `Object{metadata: Object.metadata{labels: {"team": variables.team}}}`,
            },
          },
        ],
      },
      { paramRef: { name: "map-params", parameterNotFoundAction: "Deny" } },
    );
    const labelled = await createConfigMap(configMap("cm-params", "params", { a: "b" }));
    expect((labelled.body.metadata as { labels: unknown }).labels).toEqual({ "d-map-test": "params", team: "blue" });
    const skipped = await createConfigMap(configMap("cm-skipped", "params", { skip: "1" }));
    expect((skipped.body.metadata as { labels: unknown }).labels).toEqual({ "d-map-test": "params" });
  });

  it("denies on an expression error under failurePolicy Fail and admits under Ignore", async () => {
    const failing = (failurePolicy: string, test: string) => ({
      failurePolicy,
      matchConstraints: { ...configMapRule, objectSelector: { matchLabels: { "d-map-test": test } } },
      mutations: [
        { patchType: "ApplyConfiguration", applyConfiguration: { expression: `Object{data: {"x": string(1/0)}}\n` } },
      ],
    });
    await install("err", failing("Fail", "err"));
    await install("err-ignored", failing("Ignore", "err-ignored"));
    const denied = await createConfigMap(configMap("cm-err", "err"));
    const message = `policy 'err' with binding 'err' denied request: expression 'Object{data: {"x": string(1/0)}}\n' resulted in error: division by zero`;
    expect(denied).toEqual({
      status: 403,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message,
        reason: "Invalid",
        details: { name: "cm-err", kind: "configmaps", causes: [{ message }] },
        code: 403,
      },
    });
    expect((await createConfigMap(configMap("cm-err-ignored", "err-ignored"))).status).toBe(201);
  });

  it("refuses to set atomic fields and Object types that do not follow the field path", async () => {
    const rejecting = (test: string, expression: string) => ({
      matchConstraints: { ...configMapRule, objectSelector: { matchLabels: { "d-map-test": test } } },
      mutations: [{ patchType: "ApplyConfiguration", applyConfiguration: { expression } }],
    });
    await install(
      "atomic",
      rejecting(
        "atomic",
        `Object{metadata: Object.metadata{ownerReferences: [Object.metadata.ownerReferences{name: "x"}]}}`,
      ),
    );
    await install("mismatch", rejecting("mismatch", `Object{metadata: Object.spec{labels: {"a": "b"}}}`));
    const atomic = await createConfigMap(configMap("cm-atomic", "atomic"));
    expect(atomic.body.message).toBe(
      "policy 'atomic' with binding 'atomic' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .metadata.ownerReferences[0]",
    );
    const mismatch = await createConfigMap(configMap("cm-mismatch", "mismatch"));
    expect(mismatch.body.message).toBe(
      `policy 'mismatch' with binding 'mismatch' denied request: type mismatch: unexpected type name "Object.spec", expected "Object.metadata", which matches field name path from root Object type`,
    );
  });

  it("reinvokes an IfNeeded policy when a later policy changes the object", async () => {
    // "a-count" runs first and counts the labels; "b-add" adds one afterwards, so "a-count" runs again.
    await install("a-count", {
      reinvocationPolicy: "IfNeeded",
      matchConstraints: { ...configMapRule, objectSelector: { matchLabels: { "d-map-test": "reinvoke" } } },
      mutations: [
        {
          patchType: "ApplyConfiguration",
          applyConfiguration: { expression: `Object{data: {"labels": string(size(object.metadata.labels))}}` },
        },
      ],
    });
    await install("b-add", {
      matchConstraints: { ...configMapRule, objectSelector: { matchLabels: { "d-map-test": "reinvoke" } } },
      mutations: [
        {
          patchType: "ApplyConfiguration",
          applyConfiguration: { expression: `Object{metadata: Object.metadata{labels: {"added": "1"}}}` },
        },
      ],
    });
    const created = await createConfigMap(configMap("cm-reinvoke", "reinvoke"));
    expect(created.body.data).toEqual({ labels: "2" });
  });
});
