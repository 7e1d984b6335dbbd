// kubectl's uses of OpenAPI and discovery against kapi, with nothing on stderr: explain over v3 (deep paths,
// --recursive) and over v2's protobuf form, strict validation naming the bad field, get of every listable
// resource, wait on a condition written through the status subresource, and diff (a dry-run patch).
import { execFile } from "node:child_process";
import { request } from "node:https";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, kubectlPath, startKubectlSession } from "./kubectl-session.js";

const run = promisify(execFile);

const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 80
`;

describe.skipIf(!haveKubectl)("kubectl with kapi's OpenAPI documents", () => {
  let s: KubectlSession;

  /** stdout of a command that must succeed with an empty stderr. */
  const quiet = async (...args: string[]) => {
    const { stdout, stderr } = await s.kubectlWith({}, ...args);
    expect(stderr, `kubectl ${args.join(" ")}`).toBe("");
    return stdout;
  };

  /** A raw request with the admin token, trusting the server's CA: what a controller writing status does. */
  const raw = (method: string, path: string, body: unknown) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const data = /certificate-authority-data: (\S+)/.exec(s.server.kubeconfig)?.[1] ?? "";
      const token = s.server.adminToken;
      const text = JSON.stringify(body);
      const req = request(
        `${s.server.url}${path}`,
        {
          method,
          ca: Buffer.from(data, "base64"),
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        },
        (res) => {
          let out = "";
          res.on("data", (c: Buffer) => {
            out += c.toString();
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: out }));
        },
      );
      req.on("error", reject);
      req.end(text);
    });

  const setAvailable = async (status: "True" | "False") => {
    const current = JSON.parse(await quiet("get", "deployment", "web", "-o", "json")) as Record<string, unknown>;
    const condition = {
      type: "Available",
      status,
      reason: status === "True" ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable",
      lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    };
    const res = await raw("PUT", "/apis/apps/v1/namespaces/default/deployments/web/status", {
      ...current,
      status: { observedGeneration: 1, conditions: [condition] },
    });
    expect(res.status, res.body).toBe(200);
  };

  beforeAll(async () => {
    s = await startKubectlSession();
    await quiet("apply", "-f", s.file("web.yaml", deployment(1)));
  });
  afterAll(() => s.close());

  it("explains a deep field path from the v3 document", async () => {
    const out = await quiet("explain", "deployment.spec.template.spec.containers.ports");
    expect(out).toContain("GROUP:      apps");
    expect(out).toContain("KIND:       Deployment");
    expect(out).toContain("FIELD: ports <[]ContainerPort>");
    expect(out).toMatch(/containerPort\t<integer> -required-/);
    expect(out).toMatch(/protocol\t<string>/);
  });

  it("explains pods recursively", async () => {
    const out = await quiet("explain", "pods", "--recursive");
    expect(out).toContain("KIND:       Pod");
    expect(out).toMatch(/\n {2}spec\t<PodSpec>\n/);
    expect(out).toMatch(/\n {4}containers\t<\[\]Container> -required-\n/);
    expect(out).toMatch(/\n {6}ports\t<\[\]ContainerPort>\n {8}containerPort\t<integer> -required-\n/);
    expect(out.split("\n").length).toBeGreaterThan(1000);
  });

  it("explains every resource api-resources lists, at its preferred version", async () => {
    const table = await quiet("api-resources", "--no-headers");
    const explained: string[] = [];
    for (const line of table.trim().split("\n")) {
      // NAME [SHORTNAMES] APIVERSION NAMESPACED KIND
      const columns = line.trim().split(/\s+/);
      const [name = "", apiVersion = "", kind = ""] = [columns[0], columns.at(-3), columns.at(-1)];
      const out = await quiet("explain", name, "--api-version", apiVersion);
      expect(out, `${name} ${apiVersion}`).toContain(`KIND:       ${kind}\n`);
      explained.push(name);
    }
    expect(explained.length).toBeGreaterThan(50);
  });

  it("explains from the v2 document in its protobuf form", async () => {
    const out = await quiet("explain", "pods.spec.containers.ports", "--output", "plaintext-openapiv2");
    expect(out).toContain("RESOURCE: ports <[]Object>");
    expect(out).toMatch(/containerPort\t<integer> -required-/);
  });

  it("rejects a manifest with an unknown field under --validate=strict, naming the field", async () => {
    const bad = deployment(1)
      .replace("name: web\n  namespace", "name: bad\n  namespace")
      .replace("image: nginx:1.27", "image: nginx:1.27\n          imagex: typo");
    const stderr = await s.kubectlError("apply", "--validate=strict", "-f", s.file("bad.yaml", bad));
    expect(stderr).toContain('strict decoding error: unknown field "spec.template.spec.containers[0].imagex"');
    expect(stderr).not.toMatch(/openapi|discovery/i);
  });

  it("gets every resource api-resources lists as listable", async () => {
    const resources = (await quiet("api-resources", "--verbs=list", "-o", "name")).trim().split("\n");
    expect(resources.length).toBeGreaterThan(50);
    const { stdout, stderr } = await s.kubectlWith({}, "get", resources.join(","), "--all-namespaces");
    // Only the deprecation warnings kube-apiserver sends for these two resources.
    expect(stderr).toBe(
      "Warning: v1 ComponentStatus is deprecated in v1.19+\n" +
        "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n",
    );
    expect(stdout).toContain("deployment.apps/web");
    expect(stdout).toContain("namespace/kube-system");
  });

  it("waits for a condition written through the status subresource", async () => {
    await setAvailable("False");
    const notAvailable = await quiet("wait", "--for=condition=Available=false", "deployment/web", "--timeout=20s");
    expect(notAvailable.trim()).toBe("deployment.apps/web condition met");
    // A wait that has to watch for the change.
    const waiting = run(kubectlPath, s.args("wait", "--for=condition=Available", "deployment/web", "--timeout=30s"));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await setAvailable("True");
    const { stdout, stderr } = await waiting;
    expect(stderr).toBe("");
    expect(stdout.trim()).toBe("deployment.apps/web condition met");
  });

  it("diffs a changed manifest through a server-side dry-run patch", async () => {
    const same = await s.kubectlWith({}, "diff", "-f", s.file("same.yaml", deployment(1)));
    expect(same.stdout).toBe("");
    const changed = await s
      .kubectlWith({}, "diff", "-f", s.file("changed.yaml", deployment(3)))
      .catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect("code" in changed ? changed.code : 0).toBe(1);
    expect(changed.stderr).toBe("");
    expect(changed.stdout).toMatch(/^-\s+replicas: 1$/m);
    expect(changed.stdout).toMatch(/^\+\s+replicas: 3$/m);
    expect(JSON.parse(await quiet("get", "deployment", "web", "-o", "json")).spec.replicas).toBe(1);
  });
});
