// Valid objects and the paths they live at: what the fuzzer mutates. Everything is named `h4-…` and lives in
// one namespace, so that a run against a shared server can be cleaned up.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Kind {
  /** The collection path, with `{ns}` for the namespace of namespaced kinds. */
  collection: string;
  /** Names of the object the fuzzer creates first, so that gets, updates and patches find something. */
  seedName: string;
  object(ns: string, name: string): Json;
}

export const crdGroup = "h4fuzz.example.com";

const configMap: Kind = {
  collection: "/api/v1/namespaces/{ns}/configmaps",
  seedName: "h4-seed",
  object: (ns, name) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: ns, labels: { app: "h4", tier: "fuzz" }, annotations: { note: "seed" } },
    data: { "game.properties": "lives=3\n", mode: "fuzz" },
    binaryData: { blob: "aGVsbG8=" },
  }),
};

const deployment: Kind = {
  collection: "/apis/apps/v1/namespaces/{ns}/deployments",
  seedName: "h4-seed",
  object: (ns, name) => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: ns, labels: { app: "h4" } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "h4" } },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: 1 } },
      template: {
        metadata: { labels: { app: "h4" } },
        spec: {
          containers: [
            {
              name: "web",
              image: "nginx:1.27",
              ports: [{ containerPort: 80, protocol: "TCP" }],
              env: [{ name: "MODE", value: "fuzz" }],
              resources: { limits: { cpu: "500m", memory: "128Mi" }, requests: { cpu: "100m" } },
            },
          ],
          tolerations: [{ key: "k", operator: "Exists", effect: "NoSchedule" }],
        },
      },
    },
  }),
};

const service: Kind = {
  collection: "/api/v1/namespaces/{ns}/services",
  seedName: "h4-seed",
  object: (ns, name) => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: ns },
    spec: {
      type: "ClusterIP",
      selector: { app: "h4" },
      ports: [
        { name: "http", port: 80, targetPort: 8080, protocol: "TCP" },
        { name: "https", port: 443, targetPort: "https", protocol: "TCP" },
      ],
    },
  }),
};

const crd: Kind = {
  collection: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
  seedName: `widgets.${crdGroup}`,
  object: (_ns, name) => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name },
    spec: {
      group: crdGroup,
      scope: "Namespaced",
      names: { plural: name.split(".")[0] ?? "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
          },
          additionalPrinterColumns: [{ name: "Size", type: "integer", jsonPath: ".spec.size" }],
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  properties: {
                    size: { type: "integer", minimum: 0, maximum: 100 },
                    replicas: { type: "integer" },
                    color: { type: "string", enum: ["red", "green"] },
                    tags: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
                    ports: {
                      type: "array",
                      "x-kubernetes-list-type": "map",
                      "x-kubernetes-list-map-keys": ["name"],
                      items: {
                        type: "object",
                        required: ["name"],
                        properties: { name: { type: "string" }, port: { type: "integer" } },
                      },
                    },
                  },
                  "x-kubernetes-validations": [
                    { rule: "self.size <= 50 || self.color == 'red'", message: "big ones are red" },
                  ],
                },
                status: { type: "object", properties: { replicas: { type: "integer" } } },
              },
            },
          },
        },
      ],
    },
  }),
};

const widget: Kind = {
  collection: `/apis/${crdGroup}/v1/namespaces/{ns}/widgets`,
  seedName: "h4-seed",
  object: (ns, name) => ({
    apiVersion: `${crdGroup}/v1`,
    kind: "Widget",
    metadata: { name, namespace: ns },
    spec: { size: 3, replicas: 1, color: "green", tags: ["a", "b"], ports: [{ name: "http", port: 80 }] },
  }),
};

const secret: Kind = {
  collection: "/api/v1/namespaces/{ns}/secrets",
  seedName: "h4-seed",
  object: (ns, name) => ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: ns },
    type: "Opaque",
    data: { password: "c2VjcmV0" },
    stringData: { user: "admin" },
  }),
};

const role: Kind = {
  collection: "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles",
  seedName: "h4-seed",
  object: (ns, name) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "Role",
    metadata: { name, namespace: ns },
    rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list"] }],
  }),
};

/** The kinds the fuzzer writes; the CRD comes first so that its widgets are served by the time they are sent. */
export const kinds: readonly Kind[] = [crd, configMap, deployment, service, widget, secret, role];

export function collectionPath(kind: Kind, ns: string): string {
  return kind.collection.replace("{ns}", ns);
}

/** Read-only paths: discovery, health, OpenAPI, lists across namespaces. */
export const readPaths: readonly string[] = [
  "/",
  "/api",
  "/api/v1",
  "/apis",
  "/apis/apps/v1",
  "/version",
  "/livez",
  "/readyz?verbose",
  "/healthz/ping",
  "/openapi/v2",
  "/openapi/v3",
  "/openapi/v3/api/v1",
  "/api/v1/pods",
  "/api/v1/namespaces",
  "/apis/apps/v1/deployments",
  "/api/v1/nodes",
  "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
  "/.well-known/openid-configuration",
  "/openid/v1/jwks",
  "/metrics",
];

/** Valid review requests, which are answered rather than stored. */
export const reviewBodies: readonly { path: string; body: Json }[] = [
  {
    path: "/apis/authentication.k8s.io/v1/selfsubjectreviews",
    body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" },
  },
  {
    path: "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
    body: {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: { verb: "get", resource: "pods", namespace: "default" } },
    },
  },
  {
    path: "/apis/authorization.k8s.io/v1/subjectaccessreviews",
    body: {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      spec: { user: "someone", groups: ["g"], resourceAttributes: { verb: "list", resource: "secrets" } },
    },
  },
  {
    path: "/apis/authentication.k8s.io/v1/tokenreviews",
    body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec: { token: "not-a-token" } },
  },
];
