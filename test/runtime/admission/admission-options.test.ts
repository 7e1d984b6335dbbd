// kube-apiserver's admission flags on a started server: plugins switched on and off by name, over HTTP.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { alwaysDeny } from "../../../runtime/admission/always-deny.js";
import { type InProcessServer, startServer } from "../../../runtime/index.js";

let server: InProcessServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await (server as InProcessServer).request({
    method: "POST",
    path,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const configMap = (namespace: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace } });

describe("admission flags", () => {
  it("AlwaysDeny refuses every write with kube's Forbidden", async () => {
    // Enabled by flag it would refuse the server's own system namespaces too, as it does kube-apiserver's.
    server = await startServer({ listen: false });
    server.resources.addAdmission(alwaysDeny());
    const { status, body } = await post("/api/v1/namespaces/default/configmaps", configMap("default"));
    expect(status).toBe(403);
    expect(body).toMatchObject({
      kind: "Status",
      status: "Failure",
      reason: "Forbidden",
      message: 'configmaps "c" is forbidden: admission control is denying all modifications',
      details: { name: "c", kind: "configmaps" },
      code: 403,
    });
  });

  it("NamespaceAutoProvision creates the namespace a create names", async () => {
    server = await startServer({ listen: false, admission: { enablePlugins: ["NamespaceAutoProvision"] } });
    expect((await post("/api/v1/namespaces/made-for-me/configmaps", configMap("made-for-me"))).status).toBe(201);
    const namespace = await server.request({ method: "GET", path: "/api/v1/namespaces/made-for-me" });
    expect(namespace.status).toBe(200);
  });

  it("without NamespaceLifecycle a create in a missing namespace is stored; NamespaceExists refuses it", async () => {
    server = await startServer({ listen: false, admission: { disablePlugins: ["NamespaceLifecycle"] } });
    expect((await post("/api/v1/namespaces/nowhere/configmaps", configMap("nowhere"))).status).toBe(201);
    await server.close();
    server = await startServer({
      listen: false,
      admission: { disablePlugins: ["NamespaceLifecycle"], enablePlugins: ["NamespaceExists"] },
    });
    const { status, body } = await post("/api/v1/namespaces/nowhere/configmaps", configMap("nowhere"));
    expect(status).toBe(404);
    expect(body.message).toBe('namespaces "nowhere" not found');
  });

  it("does not start with an unknown plugin name", async () => {
    await expect(startServer({ listen: false, admission: { enablePlugins: ["LimitRangerX"] } })).rejects.toThrow(
      'enable-admission-plugins plugin "LimitRangerX" is unknown',
    );
  });

  it("configures plugins from --admission-control-config-file: EventRateLimit's Server limit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kapi-admission-"));
    writeFileSync(
      join(dir, "event-rate-limit.yaml"),
      "apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits:\n- type: Server\n  qps: 1\n  burst: 2\n",
    );
    const configFile = join(dir, "admission.yaml");
    writeFileSync(
      configFile,
      "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: event-rate-limit.yaml\n",
    );
    server = await startServer({ listen: false, admission: { enablePlugins: ["EventRateLimit"], configFile } });
    const event = (name: string) => ({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name },
      involvedObject: { kind: "Pod", namespace: "default", name: "p" },
      reason: "Tested",
    });
    const statuses = [];
    for (const name of ["e1", "e2", "e3"]) statuses.push(await post("/api/v1/namespaces/default/events", event(name)));
    expect(statuses.map((s) => s.status)).toEqual([201, 201, 429]);
    expect(statuses[2]?.body).toMatchObject({
      reason: "TooManyRequests",
      message: "Too many requests: limit reached on type Server for key ",
    });
  });

  it("does not start when a plugin's configuration is bad, naming the plugin as kube-apiserver does", async () => {
    await expect(startServer({ listen: false, admission: { enablePlugins: ["EventRateLimit"] } })).rejects.toThrow(
      'couldn\'t init admission plugin "EventRateLimit": ',
    );
  });
});
