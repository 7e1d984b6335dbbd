import { describe, expect, it } from "vitest";
import { decodeBody } from "../../../../runtime/codecs/decode-body.js";
import type { GroupVersionKind } from "../../../../runtime/codecs/decode-errors.js";
import { StatusError } from "../../../../runtime/errors/status-error.js";
import { encodeMessage, envelope, prefix, protobufBody } from "./encode.js";

const protobuf = "application/vnd.kubernetes.protobuf";
const core = "k8s.io.api.core.v1";

const namespaces = { group: "", version: "v1", kind: "Namespace" };
const configMaps = { group: "", version: "v1", kind: "ConfigMap" };

function decode(body: Buffer, target?: GroupVersionKind): Record<string, unknown> {
  return decodeBody(protobuf, body, target).value;
}

function failure(body: Buffer, target?: GroupVersionKind): { code: number; message: string } {
  try {
    decodeBody(protobuf, body, target);
  } catch (e) {
    if (e instanceof StatusError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("decoded without error");
}

/** ObjectMeta as gogo-protobuf writes it: every non-pointer field, zero or not. */
function meta(set: Record<string, unknown>): Record<string, unknown> {
  return {
    name: "",
    generateName: "",
    namespace: "",
    selfLink: "",
    uid: "",
    resourceVersion: "",
    generation: 0,
    creationTimestamp: {},
    ...set,
  };
}

const seconds = Date.UTC(2026, 0, 2, 3, 4, 5) / 1000;

describe("protobuf bodies: envelope and kinds", () => {
  it("decodes a Namespace, its type from the envelope and its zero fields left out", () => {
    const body = protobufBody("v1", "Namespace", `${core}.Namespace`, {
      metadata: meta({ name: "e2e-proto" }),
      spec: {},
      status: { phase: "" },
    });
    const decoded = decodeBody(protobuf, body, namespaces);
    expect(decoded.value).toEqual({
      kind: "Namespace",
      apiVersion: "v1",
      metadata: { name: "e2e-proto" },
      spec: {},
      status: {},
    });
    expect(decoded.gvk).toEqual(namespaces);
    expect(decoded.duplicates).toEqual([]);
  });

  it("decodes a ConfigMap: map entries are kept whatever their value, bytes are base64", () => {
    const body = protobufBody("v1", "ConfigMap", `${core}.ConfigMap`, {
      metadata: meta({ name: "c", namespace: "e2e", labels: { app: "web" } }),
      data: { a: "b", empty: "" },
      binaryData: { bin: Buffer.from([0, 1, 2]) },
    });
    expect(decode(body, configMaps)).toEqual({
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: { name: "c", namespace: "e2e", labels: { app: "web" } },
      data: { a: "b", empty: "" },
      binaryData: { bin: "AAEC" },
    });
  });

  it("takes the kind from the endpoint when the envelope names none", () => {
    const raw = encodeMessage(`${core}.ConfigMap`, { metadata: meta({ name: "c" }), data: { k: "v" } });
    const decoded = decodeBody(protobuf, envelope("", "", raw), configMaps);
    expect(decoded.value).toEqual({ metadata: { name: "c" }, data: { k: "v" } });
    expect(decoded.gvk).toEqual(configMaps);
  });

  it("finds meta.k8s.io kinds in every group version, as kube's schemes register them", () => {
    const body = protobufBody("apps/v1", "DeleteOptions", "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions", {
      gracePeriodSeconds: 0,
      propagationPolicy: "Foreground",
      dryRun: ["All"],
    });
    expect(decode(body)).toEqual({
      kind: "DeleteOptions",
      apiVersion: "apps/v1",
      propagationPolicy: "Foreground",
      dryRun: ["All"],
    });
  });

  it("skips fields it does not know, as protobuf readers do", () => {
    const raw = encodeMessage(`${core}.ConfigMap`, { metadata: meta({ name: "c" }) });
    const unknownField = Buffer.from([0xb8, 0x3e, 0x07]); // field 999, varint 7
    expect(decode(envelope("v1", "ConfigMap", Buffer.concat([raw, unknownField])), configMaps)).toEqual({
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: { name: "c" },
    });
  });
});

describe("protobuf bodies: kube's JSON form", () => {
  const deployment = {
    metadata: meta({ name: "web", namespace: "e2e", labels: { app: "web" } }),
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: meta({ labels: { app: "web" } }),
        spec: {
          volumes: [{ name: "cfg", volumeSource: { configMap: { localObjectReference: { name: "c" } } } }],
          containers: [
            {
              name: "nginx",
              image: "nginx:1.27",
              workingDir: "",
              ports: [{ name: "", hostPort: 0, containerPort: 80, protocol: "", hostIP: "" }],
              resources: { limits: { cpu: { string: "500m" }, memory: { string: "128Mi" } } },
              readinessProbe: {
                handler: { httpGet: { path: "/", port: { type: 1, intVal: 0, strVal: "http" }, host: "", scheme: "" } },
                initialDelaySeconds: 0,
                timeoutSeconds: 2,
                periodSeconds: 5,
                successThreshold: 1,
                failureThreshold: 3,
              },
              terminationMessagePath: "",
              imagePullPolicy: "",
              stdin: false,
              stdinOnce: false,
              tty: false,
              terminationMessagePolicy: "",
            },
          ],
          restartPolicy: "",
          dnsPolicy: "",
          serviceAccountName: "",
          nodeName: "",
          hostNetwork: false,
          hostPID: false,
          hostIPC: false,
          schedulerName: "",
          enableServiceLinks: false,
        },
      },
      strategy: {
        type: "",
        rollingUpdate: { maxUnavailable: { type: 0, intVal: 0, strVal: "" }, maxSurge: { type: 1, strVal: "25%" } },
      },
      minReadySeconds: 0,
      paused: false,
    },
    status: { observedGeneration: 0, replicas: 0, updatedReplicas: 0, readyReplicas: 0 },
  };

  it("keeps the zeros a client chose and drops those Go's JSON would omit", () => {
    const body = protobufBody("apps/v1", "Deployment", "k8s.io.api.apps.v1.Deployment", deployment);
    expect(decode(body, { group: "apps", version: "v1", kind: "Deployment" })).toEqual({
      kind: "Deployment",
      apiVersion: "apps/v1",
      metadata: { name: "web", namespace: "e2e", labels: { app: "web" } },
      spec: {
        // A number with a default is a Go pointer: zero was set. So is enableServiceLinks below.
        replicas: 0,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: {
            // Embedded structs (VolumeSource, LocalObjectReference, ProbeHandler) are flattened.
            volumes: [{ name: "cfg", configMap: { name: "c" } }],
            containers: [
              {
                name: "nginx",
                image: "nginx:1.27",
                ports: [{ containerPort: 80 }],
                resources: { limits: { cpu: "500m", memory: "128Mi" } },
                readinessProbe: {
                  httpGet: { path: "/", port: "http" },
                  timeoutSeconds: 2,
                  periodSeconds: 5,
                  successThreshold: 1,
                  failureThreshold: 3,
                },
              },
            ],
            enableServiceLinks: false,
          },
        },
        // IntOrString is a struct in Go, written whatever its value.
        strategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: "25%" } },
      },
      status: {},
    });
  });

  it("writes a Service's targetPort as a number or a name", () => {
    const port = { protocol: "TCP", nodePort: 0, appProtocol: "" };
    const body = protobufBody("v1", "Service", `${core}.Service`, {
      metadata: meta({ name: "svc" }),
      spec: {
        ports: [
          { ...port, name: "http", port: 80, targetPort: { type: 0, intVal: 8080, strVal: "" } },
          { ...port, name: "named", port: 81, targetPort: { type: 1, intVal: 0, strVal: "web" } },
        ],
        type: "",
        sessionAffinity: "",
        publishNotReadyAddresses: false,
      },
      status: { loadBalancer: {} },
    });
    expect(decode(body, { group: "", version: "v1", kind: "Service" })).toEqual({
      kind: "Service",
      apiVersion: "v1",
      metadata: { name: "svc" },
      spec: {
        ports: [
          { name: "http", protocol: "TCP", port: 80, targetPort: 8080 },
          { name: "named", protocol: "TCP", port: 81, targetPort: "web" },
        ],
      },
      status: { loadBalancer: {} },
    });
  });

  it("keeps the zeros of required fields, which Go writes without omitempty", () => {
    const body = protobufBody(
      "authorization.k8s.io/v1",
      "SelfSubjectAccessReview",
      "k8s.io.api.authorization.v1.SelfSubjectAccessReview",
      {
        metadata: meta({}),
        spec: { resourceAttributes: { namespace: "", verb: "list", group: "", version: "", resource: "pods" } },
        status: { allowed: false, denied: false, reason: "", evaluationError: "" },
      },
    );
    expect(decode(body, { group: "authorization.k8s.io", version: "v1", kind: "SelfSubjectAccessReview" })).toEqual({
      kind: "SelfSubjectAccessReview",
      apiVersion: "authorization.k8s.io/v1",
      metadata: {},
      spec: { resourceAttributes: { verb: "list", resource: "pods" } },
      status: { allowed: false },
    });
  });

  it("writes Time in whole seconds and MicroTime with microseconds; a zero time is left out", () => {
    const lease = protobufBody("coordination.k8s.io/v1", "Lease", "k8s.io.api.coordination.v1.Lease", {
      metadata: meta({ name: "l", creationTimestamp: { seconds, nanos: 5 } }),
      spec: { holderIdentity: "a", acquireTime: { seconds, nanos: 123456789 }, renewTime: {} },
    });
    expect(decode(lease, { group: "coordination.k8s.io", version: "v1", kind: "Lease" })).toEqual({
      kind: "Lease",
      apiVersion: "coordination.k8s.io/v1",
      metadata: { name: "l", creationTimestamp: "2026-01-02T03:04:05Z" },
      spec: { holderIdentity: "a", acquireTime: "2026-01-02T03:04:05.123456Z" },
    });
  });

  it("writes int64 and negative numbers exactly", () => {
    const pod = protobufBody("v1", "Pod", `${core}.Pod`, {
      metadata: meta({ name: "p" }),
      spec: {
        containers: [{ name: "c", image: "i" }],
        activeDeadlineSeconds: 2 ** 40,
        priority: -5,
        securityContext: { runAsUser: 1000, supplementalGroups: [1, 2 ** 33] },
      },
    });
    const spec = decode(pod, { group: "", version: "v1", kind: "Pod" }).spec;
    expect(spec).toEqual({
      containers: [{ name: "c", image: "i" }],
      activeDeadlineSeconds: 2 ** 40,
      priority: -5,
      securityContext: { runAsUser: 1000, supplementalGroups: [1, 2 ** 33] },
    });
  });

  it("keeps empty strings in lists and unwraps list messages (ExtraValue)", () => {
    const role = protobufBody("rbac.authorization.k8s.io/v1", "Role", "k8s.io.api.rbac.v1.Role", {
      metadata: meta({ name: "r" }),
      rules: [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }],
    });
    expect(decode(role).rules).toEqual([{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }]);
    const review = protobufBody(
      "authorization.k8s.io/v1",
      "SubjectAccessReview",
      "k8s.io.api.authorization.v1.SubjectAccessReview",
      { metadata: meta({}), spec: { user: "u", groups: ["g"], extra: { scopes: { items: ["x", "y"] } }, uid: "" } },
    );
    expect(decode(review).spec).toEqual({ user: "u", groups: ["g"], extra: { scopes: ["x", "y"] } });
  });

  it("writes a RawExtension as the JSON it holds, and keeps a required zero number", () => {
    const body = protobufBody("apps/v1", "ControllerRevision", "k8s.io.api.apps.v1.ControllerRevision", {
      metadata: meta({ name: "rev" }),
      data: { raw: Buffer.from('{"spec":{"a":[1,true]}}') },
      revision: 0,
    });
    expect(decode(body)).toEqual({
      kind: "ControllerRevision",
      apiVersion: "apps/v1",
      metadata: { name: "rev" },
      data: { spec: { a: [1, true] } },
      revision: 0,
    });
  });

  it("writes JSONSchemaProps' unions as their JSON form: schema, list or boolean", () => {
    const apiextensions = "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1";
    const schema = {
      type: "object",
      properties: {
        replicas: { type: "integer", minimum: 1, default: { raw: Buffer.from("1") } },
        tags: { type: "array", items: { schema: { type: "string" } } },
        labels: { type: "object", additionalProperties: { allows: true, schema: { type: "string" } } },
      },
      additionalProperties: { allows: false },
      required: ["replicas"],
    };
    const body = protobufBody(
      "apiextensions.k8s.io/v1",
      "CustomResourceDefinition",
      `${apiextensions}.CustomResourceDefinition`,
      {
        metadata: meta({ name: "widgets.example.com" }),
        spec: {
          group: "example.com",
          names: { plural: "widgets", kind: "Widget" },
          scope: "Namespaced",
          versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }],
        },
      },
    );
    const versions = (decode(body).spec as { versions: { schema: unknown }[] }).versions;
    expect(versions[0]?.schema).toEqual({
      openAPIV3Schema: {
        type: "object",
        properties: {
          replicas: { type: "integer", minimum: 1, default: 1 },
          tags: { type: "array", items: { type: "string" } },
          labels: { type: "object", additionalProperties: { type: "string" } },
        },
        additionalProperties: false,
        required: ["replicas"],
      },
    });
  });
});

describe("protobuf bodies: malformed, in kube's words", () => {
  const hex = (b: Buffer) => b.subarray(0, 30).toString("hex") + (b.length > 30 ? " ..." : "");

  it("refuses a body without the k8s prefix, or with nothing after it", () => {
    expect(failure(Buffer.from("{}"), namespaces)).toEqual({
      code: 400,
      message:
        "the object provided is unrecognized (must be of type Namespace): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({})",
    });
    expect(failure(prefix, namespaces).message).toBe(
      "the object provided is unrecognized (must be of type Namespace): empty body (6b387300)",
    );
    expect(failure(Buffer.alloc(0), namespaces).message).toBe(
      "the object provided is unrecognized (must be of type Namespace): empty data (<empty>)",
    );
  });

  it("quotes the body when the envelope itself is broken", () => {
    const body = Buffer.concat([prefix, Buffer.from([0x0a, 0x05, 0x0a])]);
    expect(failure(body, namespaces).message).toBe(
      `the object provided is unrecognized (must be of type Namespace): unexpected EOF (${hex(body)})`,
    );
  });

  it("names the claimed kind once the envelope is read", () => {
    const raw = encodeMessage(`${core}.Namespace`, { metadata: meta({ name: "x" }) });
    const cases: [Uint8Array, string][] = [
      [raw.subarray(0, raw.length - 2), "unexpected EOF"],
      [Buffer.from([0x00]), "proto: Namespace: illegal tag 0 (wire type 0)"],
      [Buffer.from([0x0c]), "proto: Namespace: wiretype end group for non-group"],
      [Buffer.from([0x7f]), "proto: illegal wireType 7"],
      [
        Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
        "proto: integer overflow",
      ],
      [
        Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
        "proto: negative length found during unmarshaling",
      ],
      [Buffer.from([0x12, 0x02, 0x0a, 0x05]), "unexpected EOF"],
    ];
    for (const [bytes, reason] of cases) {
      expect(failure(envelope("v1", "Namespace", bytes), namespaces)).toEqual({
        code: 400,
        message: `Namespace in version "v1" cannot be handled as a Namespace: ${reason}`,
      });
    }
    const wrongType = envelope("v1", "ConfigMap", Buffer.from([0x10, 0x01]));
    expect(failure(wrongType, configMaps).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 0 for field Data',
    );
  });

  it("refuses a kind it has no message for, and bytes that are not the JSON a RawExtension holds", () => {
    const raw = encodeMessage(`${core}.Namespace`, { metadata: meta({ name: "x" }) });
    expect(failure(envelope("v1", "Widget", raw), namespaces).message).toBe(
      'Widget in version "v1" cannot be handled as a Namespace: no kind "Widget" is registered for version "v1"',
    );
    const revision = protobufBody("apps/v1", "ControllerRevision", "k8s.io.api.apps.v1.ControllerRevision", {
      data: { raw: Buffer.from("{") },
    });
    expect(failure(revision, { group: "apps", version: "v1", kind: "ControllerRevision" }).message).toBe(
      'ControllerRevision in version "v1" cannot be handled as a ControllerRevision: unexpected end of JSON input',
    );
  });

  it("without an endpoint kind, needs the envelope's", () => {
    const raw = encodeMessage("k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions", {});
    expect(failure(envelope("v1", "", raw))).toEqual({
      code: 400,
      message: `Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:"v1", Kind:""}'`,
    });
  });
});
