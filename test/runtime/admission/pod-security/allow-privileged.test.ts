// `--allow-privileged`: without it (kube's default) pod validation refuses privileged containers, in pods and
// in workloads' pod templates, with kube's texts (the reference kube-apiserver runs without the flag); with it
// they pass validation and PodSecurity decides (the answer of a kube-apiserver of our own with
// --allow-privileged=true and the namespace labelled enforce=baseline).
import { afterAll, describe, expect, it } from "vitest";
import { parseServeFlags } from "../../../../runtime/cli/serve-flags.js";
import { type RunningServer, startServer } from "../../../../runtime/index.js";

const token = "allow-privileged-token";
const servers: RunningServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function serverWith(allowPrivileged?: boolean): Promise<RunningServer> {
  const server = await startServer({
    insecure: true,
    adminToken: token,
    controllers: false,
    // Without controllers no default service account exists for the ServiceAccount plugin to find.
    admission: { disablePlugins: ["ServiceAccount"] },
    ...(allowPrivileged === undefined ? {} : { allowPrivileged }),
  });
  servers.push(server);
  return server;
}

async function post(server: RunningServer, path: string, body: object): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const privilegedPod = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p4" },
  spec: {
    containers: [{ name: "c", image: "busybox", securityContext: { privileged: true } }],
    initContainers: [{ name: "i", image: "busybox", securityContext: { privileged: true } }],
  },
};

describe("--allow-privileged", () => {
  it("is off by default: privileged containers are disallowed by cluster policy", async () => {
    const server = await serverWith();
    expect(await post(server, "/api/v1/namespaces/default/pods", privilegedPod)).toEqual({
      status: 422,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message:
          'Pod "p4" is invalid: [spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy, spec.initContainers[0].securityContext.privileged: Forbidden: disallowed by cluster policy]',
        reason: "Invalid",
        details: {
          name: "p4",
          kind: "Pod",
          causes: [
            {
              reason: "FieldValueForbidden",
              message: "Forbidden: disallowed by cluster policy",
              field: "spec.containers[0].securityContext.privileged",
            },
            {
              reason: "FieldValueForbidden",
              message: "Forbidden: disallowed by cluster policy",
              field: "spec.initContainers[0].securityContext.privileged",
            },
          ],
        },
        code: 422,
      },
    });
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "dp" },
      spec: {
        selector: { matchLabels: { a: "b" } },
        template: {
          metadata: { labels: { a: "b" } },
          spec: { containers: [{ name: "c", image: "busybox", securityContext: { privileged: true } }] },
        },
      },
    };
    const refused = await post(server, "/apis/apps/v1/namespaces/default/deployments", deployment);
    expect(refused.status).toBe(422);
    expect((refused.body as { message: string }).message).toBe(
      'Deployment.apps "dp" is invalid: spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy',
    );
  });

  it("lets privileged containers through validation when on, for PodSecurity to judge", async () => {
    const server = await serverWith(true);
    expect((await post(server, "/api/v1/namespaces/default/pods", privilegedPod)).status).toBe(201);
    await post(server, "/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "priv", labels: { "pod-security.kubernetes.io/enforce": "baseline" } },
    });
    expect(await post(server, "/api/v1/namespaces/priv/pods", privilegedPod)).toEqual({
      status: 403,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message:
          'pods "p4" is forbidden: violates PodSecurity "baseline:latest": privileged (containers "i", "c" must not set securityContext.privileged=true)',
        reason: "Forbidden",
        details: { name: "p4", kind: "pods" },
        code: 403,
      },
    });
  });

  it("is kube-apiserver's boolean flag", () => {
    expect(parseServeFlags(["--allow-privileged"]).allowPrivileged).toBe(true);
    expect(parseServeFlags(["--allow-privileged=false"]).allowPrivileged).toBe(false);
    expect(parseServeFlags([]).allowPrivileged).toBeUndefined();
    expect(() => parseServeFlags(["--allow-privileged=maybe"])).toThrow(
      'invalid argument "maybe" for "--allow-privileged" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
  });
});
