// csrapproving over the in-process server: a bootstrapping kubelet with the nodeclient ClusterRole gets its
// node client request approved (and then signed by csrsigning); one without it stays pending. The condition
// is the one kube-controller-manager v1.36.2 wrote on the reference for the same requests.
import { generateKeyPairSync, sign } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bitString, contextTag, oid, sequence, set, smallInteger, utf8String } from "../../../../runtime/http/der.js";
import { type InProcessServer, startServer } from "../../../../runtime/index.js";

const csrPath = "/apis/certificates.k8s.io/v1/certificatesigningrequests";

function nodeCertificateRequest(commonName: string): string {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const subject = sequence(
    set(sequence(oid("2.5.4.10"), utf8String("system:nodes"))),
    set(sequence(oid("2.5.4.3"), utf8String(commonName))),
  );
  const info = sequence(
    smallInteger(0),
    subject,
    publicKey.export({ type: "spki", format: "der" }),
    contextTag(0, Buffer.alloc(0), true),
  );
  const der = sequence(info, sequence(oid("1.2.840.10045.4.3.2")), bitString(sign("sha256", info, privateKey)));
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return Buffer.from(
    `-----BEGIN CERTIFICATE REQUEST-----\n${lines.join("\n")}\n-----END CERTIFICATE REQUEST-----\n`,
  ).toString("base64");
}

const binding = (name: string, role: string, users: string[]) => ({
  apiVersion: "rbac.authorization.k8s.io/v1",
  kind: "ClusterRoleBinding",
  metadata: { name },
  roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role },
  subjects: users.map((user) => ({ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: user })),
});

describe("csrapproving", () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, authorization: { authorizationMode: "Node,RBAC" } });
  });
  afterAll(() => server.close());

  async function call(method: string, path: string, body?: object, user?: string) {
    const headers = user === undefined ? {} : { "Impersonate-User": user, "Impersonate-Group": "system:authenticated" };
    const res = await server.request({ method, path, headers, ...(body === undefined ? {} : { body }) });
    return { code: res.status, body: (await res.json()) as Record<string, Record<string, unknown>> };
  }

  async function statusOf(name: string, until: (status: Record<string, unknown>) => boolean) {
    for (let i = 0; i < 100; i++) {
      const { body } = await call("GET", `${csrPath}/${name}`);
      if (until(body.status ?? {})) return body.status ?? {};
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return (await call("GET", `${csrPath}/${name}`)).body.status ?? {};
  }

  it("approves a permitted kubelet's node client request, which csrsigning then signs", async () => {
    const roles = [
      binding("i-nodeclient", "system:certificates.k8s.io:certificatesigningrequests:nodeclient", ["i-bootstrap"]),
      binding("i-bootstrapper", "system:node-bootstrapper", ["i-bootstrap", "i-other"]),
    ];
    for (const role of roles)
      expect((await call("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", role)).code).toBe(201);
    const csr = (name: string) => ({
      apiVersion: "certificates.k8s.io/v1",
      kind: "CertificateSigningRequest",
      metadata: { name },
      spec: {
        signerName: "kubernetes.io/kube-apiserver-client-kubelet",
        usages: ["digital signature", "client auth"],
        request: nodeCertificateRequest("system:node:i-n9"),
      },
    });
    expect((await call("POST", csrPath, csr("i-csr1"), "i-bootstrap")).code).toBe(201);
    expect((await call("POST", csrPath, csr("i-csr2"), "i-other")).code).toBe(201);
    const approved = await statusOf("i-csr1", (s) => typeof s.certificate === "string");
    const conditions = approved.conditions as Record<string, string>[];
    expect(conditions).toHaveLength(1);
    expect(Object.keys(conditions[0] ?? {}).sort()).toEqual([
      "lastTransitionTime",
      "lastUpdateTime",
      "message",
      "reason",
      "status",
      "type",
    ]);
    expect(conditions[0]).toMatchObject({
      message: "Auto approving kubelet client certificate after SubjectAccessReview.",
      reason: "AutoApproved",
      status: "True",
      type: "Approved",
    });
    expect(typeof approved.certificate).toBe("string");
    // The requester without the nodeclient permission stays pending, as on the reference (status {}).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call("GET", `${csrPath}/i-csr2`)).body.status).toEqual({});
  });
});
