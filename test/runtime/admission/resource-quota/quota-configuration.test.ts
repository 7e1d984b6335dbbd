// ResourceQuota's admission configuration: limitedResources need a covering quota. Expected answers were
// recorded from a kube-apiserver v1.36.2 started with the same AdmissionConfiguration (namespace c-lim).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadQuotaConfiguration } from "../../../../runtime/admission/resource-quota/quota-configuration.js";
import { type InProcessServer, startServer } from "../../../../runtime/index.js";

const quotaConfiguration = `apiVersion: apiserver.config.k8s.io/v1
kind: ResourceQuotaConfiguration
limitedResources:
- resource: pods
  matchContains: [requests.cpu]
- resource: pods
  matchScopes:
  - {scopeName: PriorityClass, operator: In, values: [c-high]}
`;

function configFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "kapi-quota-"));
  writeFileSync(join(dir, "quota.yaml"), text);
  const file = join(dir, "admission.yaml");
  writeFileSync(
    file,
    "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  path: quota.yaml\n",
  );
  return file;
}

describe("ResourceQuota configuration", () => {
  let server: InProcessServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function post(path: string, body: unknown) {
    const response = await (server as InProcessServer).request({
      method: "POST",
      path,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const pod = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name },
    spec: { containers: [{ name: "c", image: "nginx" }], ...spec },
  });

  it("refuses what consumes a limited resource or scope without a covering quota", async () => {
    server = await startServer({ listen: false, admission: { configFile: configFile(quotaConfiguration) } });
    await post("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "c-lim" } });
    await post("/apis/scheduling.k8s.io/v1/priorityclasses", {
      apiVersion: "scheduling.k8s.io/v1",
      kind: "PriorityClass",
      metadata: { name: "c-high" },
      value: 1000,
    });
    expect((await post("/api/v1/namespaces/c-lim/pods", pod("a", {}))).status).toBe(201);
    const cpu = pod("b", { containers: [{ name: "b", image: "nginx", resources: { requests: { cpu: "100m" } } }] });
    const refused = await post("/api/v1/namespaces/c-lim/pods", cpu);
    expect([refused.status, refused.body.message]).toEqual([
      403,
      'pods "b" is forbidden: insufficient quota to consume: requests.cpu',
    ]);
    expect(await post("/api/v1/namespaces/c-lim/pods", pod("d", { priorityClassName: "c-high" }))).toEqual({
      status: 500,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: "insufficient quota to match these scopes: [{PriorityClass In [c-high]}]",
        code: 500,
      },
    });
  });

  it("reads the three versions kube registers and refuses a limited resource without a name", () => {
    const limited = "limitedResources:\n- resource: pods\n  matchContains: [cpu]\n";
    for (const head of [
      "apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\n",
      "apiVersion: resourcequota.admission.k8s.io/v1beta1\nkind: Configuration\n",
      "apiVersion: resourcequota.admission.k8s.io/v1alpha1\nkind: Configuration\n",
    ]) {
      expect(loadQuotaConfiguration({ text: head + limited, source: "q.yaml" }).limitedResources).toEqual([
        { apiGroup: "", resource: "pods", matchContains: ["cpu"], matchScopes: [] },
      ]);
    }
    expect(() =>
      loadQuotaConfiguration({
        text: "apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- matchContains: [cpu]\n",
        source: "q.yaml",
      }),
    ).toThrow("limitedResources[0].resource: Required value");
  });
});
