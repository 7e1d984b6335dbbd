// Admission webhooks end to end: kubectl registers a Mutating- and a ValidatingWebhookConfiguration (one
// webhook by url, one by a Service whose EndpointSlice points at the test's webhook server), then writes
// config maps that are patched, denied (kubectl prints kube's text), warned about, and dry-run; the same
// denial reaches @kubernetes/client-node as kube's Status. Texts are the reference kube-apiserver v1.36's.
import { ApiException, CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AdmissionWebhookServer,
  startAdmissionWebhookServer,
} from "../runtime/admission/webhook/webhook-fixtures.js";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

const rules = `    rules:
      - operations: ["CREATE", "UPDATE"]
        apiGroups: [""]
        apiVersions: ["v1"]
        resources: ["configmaps"]
    sideEffects: None
    admissionReviewVersions: ["v1"]`;

const configurations = (hook: AdmissionWebhookServer) => `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: b-e2e-mutating
webhooks:
  - name: stamp.b.example.com
    clientConfig:
      service:
        namespace: b-e2e
        name: hooks
        path: /stamp
      caBundle: ${hook.caBundle}
    objectSelector:
      matchLabels:
        webhooks: "on"
${rules}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: b-e2e-validating
webhooks:
  - name: policy.b.example.com
    clientConfig:
      url: https://127.0.0.1:${hook.port}/policy
      caBundle: ${hook.caBundle}
    objectSelector:
      matchLabels:
        webhooks: "on"
${rules}
`;

const service = (hook: AdmissionWebhookServer) => `apiVersion: v1
kind: Service
metadata:
  name: hooks
  namespace: b-e2e
spec:
  ports:
    - name: https
      port: 443
      targetPort: ${hook.port}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: hooks-1
  namespace: b-e2e
  labels:
    kubernetes.io/service-name: hooks
addressType: IPv4
ports:
  - name: https
    port: ${hook.port}
endpoints:
  - addresses: ["127.0.0.1"]
`;

const configMap = (name: string, data: Record<string, string>) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: b-e2e
  labels:
    webhooks: "on"
data:
${Object.entries(data)
  .map(([k, v]) => `  ${k}: "${v}"`)
  .join("\n")}
`;

describe.skipIf(!haveKubectl)("admission webhooks with kubectl", () => {
  let session: KubectlSession;
  let hook: AdmissionWebhookServer;

  beforeAll(async () => {
    hook = await startAdmissionWebhookServer(["hooks.b-e2e.svc"]);
    hook.handle("/stamp", () => ({
      response: {
        allowed: true,
        patchType: "JSONPatch",
        patch: Buffer.from(JSON.stringify([{ op: "add", path: "/data/stamped", value: "by-webhook" }])).toString(
          "base64",
        ),
      },
    }));
    hook.handle("/policy", (review) => {
      const data = (review.request.object as { data?: Record<string, string> }).data ?? {};
      if (data.forbidden !== undefined) return { response: { allowed: false, status: { message: "forbidden key" } } };
      return { response: { allowed: true, warnings: data.old !== undefined ? ["key old is deprecated"] : [] } };
    });
    // The server's own chain calls the webhooks: MutatingAdmissionWebhook and ValidatingAdmissionWebhook are on by default.
    session = await startKubectlSession();
    const { kubectl, file } = session;
    await kubectl("create", "namespace", "b-e2e");
    await kubectl("apply", "-f", file("service.yaml", service(hook)));
    await kubectl("apply", "-f", file("webhooks.yaml", configurations(hook)));
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await hook?.close();
  });

  it("applies the mutating webhook's patch, reached through its service", async () => {
    const { kubectl, file } = session;
    expect(await kubectl("apply", "-f", file("plain.yaml", configMap("plain", { a: "b" })))).toBe(
      "configmap/plain created\n",
    );
    const data = JSON.parse(await kubectl("get", "configmap", "plain", "-n", "b-e2e", "-o", "jsonpath={.data}"));
    expect(data).toEqual({ a: "b", stamped: "by-webhook" });
  });

  it("prints the validating webhook's denial as kube words it", async () => {
    const { kubectlError, file } = session;
    const path = file("denied.yaml", configMap("denied", { forbidden: "x" }));
    expect(await kubectlError("apply", "-f", path)).toBe(
      `Error from server: error when creating "${path}": admission webhook "policy.b.example.com" denied the request: forbidden key\n`,
    );
  });

  it("prints the webhook's warnings, on a server-side dry run too", async () => {
    const { kubectlWith, file, kubectlError } = session;
    const path = file("warned.yaml", configMap("warned", { old: "x" }));
    const dryRun = await kubectlWith({}, "apply", "--dry-run=server", "-f", path);
    expect(dryRun.stdout).toBe("configmap/warned created (server dry run)\n");
    expect(dryRun.stderr).toBe("Warning: key old is deprecated\n");
    expect(await kubectlError("get", "configmap", "warned", "-n", "b-e2e")).toBe(
      'Error from server (NotFound): configmaps "warned" not found\n',
    );
    // Registered without timeoutSeconds: the API's default, 10 s, is the deadline.
    const dryRunCalls = hook.calls.filter((c) => c.review.request.dryRun === true).map((c) => c.path);
    expect(dryRunCalls).toEqual(["/stamp?timeout=10s", "/policy?timeout=10s"]);
  });

  it("hands @kubernetes/client-node kube's Status for a denial", async () => {
    const kc = new KubeConfig();
    kc.loadFromString(session.server.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const denied = await core
      .createNamespacedConfigMap({
        namespace: "b-e2e",
        body: { metadata: { name: "client-denied", labels: { webhooks: "on" } }, data: { forbidden: "1" } },
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(denied).toBeInstanceOf(ApiException);
    const exception = denied as ApiException<string>;
    expect(exception.code).toBe(400);
    expect(JSON.parse(exception.body)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'admission webhook "policy.b.example.com" denied the request: forbidden key',
      code: 400,
    });
  });
});
