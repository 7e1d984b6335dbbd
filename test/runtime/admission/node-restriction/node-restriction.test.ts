// NodeRestriction over the in-process server, a kubelet's requests (impersonating `system:node:i-n1` in
// `system:nodes`) compared with a kube-apiserver v1.36.2 started with --enable-admission-plugins=NodeRestriction
// and a client certificate CN=system:node:i-n1, O=system:nodes (answers recorded below).
import { generateKeyPairSync, sign } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bitString, contextTag, oid, sequence, set, smallInteger, utf8String } from "../../../../runtime/http/der.js";
import { type InProcessServer, startServer } from "../../../../runtime/index.js";

const asNode = { "Impersonate-User": "system:node:i-n1", "Impersonate-Group": "system:nodes" };

interface Answer {
  code: number;
  message: string | undefined;
  body: Record<string, unknown>;
}

/** A PKCS#10 request for `/O=system:nodes/CN=<cn>`, as base64 of its PEM. */
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
  const pem = `-----BEGIN CERTIFICATE REQUEST-----\n${lines.join("\n")}\n-----END CERTIFICATE REQUEST-----\n`;
  return Buffer.from(pem).toString("base64");
}

describe("NodeRestriction", () => {
  let server: InProcessServer;
  let nodeUid = "";
  beforeAll(async () => {
    // ServiceAccount off: kube's runs first and would refuse the mirror pods for their missing default account.
    server = await startServer({
      listen: false,
      admission: { enablePlugins: ["NodeRestriction"], disablePlugins: ["ServiceAccount"] },
    });
  });
  afterAll(() => server.close());

  async function call(method: string, path: string, body?: object, user = asNode, type?: string): Promise<Answer> {
    const headers: Record<string, string> = { ...user, ...(type === undefined ? {} : { "Content-Type": type }) };
    const res = await server.request({ method, path, headers, ...(body === undefined ? {} : { body }) });
    const json = (await res.json()) as Record<string, unknown>;
    return { code: res.status, message: json.message as string | undefined, body: json };
  }
  const mergePatch = (path: string, body: object) => call("PATCH", path, body, asNode, "application/merge-patch+json");

  const node = (name: string, labels: Record<string, string>) => ({
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, labels },
  });

  it("lets a node register itself without restricted labels", async () => {
    let answer = await call(
      "POST",
      "/api/v1/nodes",
      node("i-n1", {
        "kubernetes.io/hostname": "i-n1",
        "node-role.kubernetes.io/master": "",
        "foo.node-restriction.kubernetes.io/x": "y",
        "example.com/a": "b",
      }),
    );
    expect(answer.code).toBe(403);
    expect(answer.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      // The reference build leaves node-role.kubernetes.io/master out (an OpenShift carry patch); upstream lists it.
      message:
        'nodes "i-n1" is forbidden: node "i-n1" is not allowed to set the following labels: foo.node-restriction.kubernetes.io/x, node-role.kubernetes.io/master',
      reason: "Forbidden",
      details: { name: "i-n1", kind: "nodes" },
      code: 403,
    });
    answer = await call(
      "POST",
      "/api/v1/nodes?dryRun=All",
      node("i-n1", { "node-role.kubernetes.io/x": "", "example.kubernetes.io/a": "b", "foo.k8s.io/b": "c" }),
    );
    expect(answer.message).toBe(
      'nodes "i-n1" is forbidden: node "i-n1" is not allowed to set the following labels: example.kubernetes.io/a, foo.k8s.io/b, node-role.kubernetes.io/x',
    );
    answer = await call("POST", "/api/v1/nodes", node("i-n1x", {}));
    expect(answer.message).toBe('nodes "i-n1x" is forbidden: node "i-n1" is not allowed to modify node "i-n1x"');
    answer = await call("POST", "/api/v1/nodes", node("i-n1", { "kubernetes.io/hostname": "i-n1" }));
    expect(answer.code).toBe(201);
    nodeUid = (answer.body.metadata as { uid: string }).uid;
  });

  it("keeps a node from changing its taints and restricted labels", async () => {
    let answer = await mergePatch("/api/v1/nodes/i-n1", {
      metadata: { labels: { "node-role.kubernetes.io/x": "", "kubernetes.io/hostname": null } },
    });
    expect(answer.code).toBe(403);
    expect(answer.message).toBe(
      'nodes "i-n1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/x',
    );
    answer = await mergePatch("/api/v1/nodes/i-n1", { spec: { taints: [{ key: "a", effect: "NoSchedule" }] } });
    expect(answer.message).toBe('nodes "i-n1" is forbidden: node "i-n1" is not allowed to modify taints');
    answer = await mergePatch("/api/v1/nodes/i-n1", { metadata: { labels: { "node.kubernetes.io/x": "1" } } });
    expect(answer.code).toBe(200);
    // Other users are not restricted.
    answer = await call(
      "PATCH",
      "/api/v1/nodes/i-n1",
      { spec: { taints: [{ key: "a", effect: "NoSchedule" }] } },
      {} as typeof asNode,
      "application/merge-patch+json",
    );
    expect(answer.code).toBe(200);
  });

  const mirrorPod = (ownerUid: string, spec: Record<string, unknown> = {}) => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "i-p1",
      annotations: { "kubernetes.io/config.mirror": "x" },
      ownerReferences: [{ apiVersion: "v1", kind: "Node", name: "i-n1", uid: ownerUid, controller: true }],
    },
    spec: { nodeName: "i-n1", containers: [{ name: "c", image: "busybox" }], ...spec },
  });
  const podsPath = "/api/v1/namespaces/default/pods";

  it("lets a node create only mirror pods of its own that refer to no API object", async () => {
    let answer = await call("POST", podsPath, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "i-p1" },
      spec: { nodeName: "i-n1", containers: [{ name: "c", image: "busybox" }] },
    });
    expect(answer.message).toBe(
      'pods "i-p1" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "i-n1" can only create mirror pods',
    );
    answer = await call("POST", podsPath, mirrorPod("bad"));
    expect(answer.message).toBe(`pods "i-p1" is forbidden: node i-n1 UID mismatch: expected bad got ${nodeUid}`);
    answer = await call(
      "POST",
      podsPath,
      mirrorPod(nodeUid, { containers: [{ name: "c", image: "busybox", envFrom: [{ secretRef: { name: "s" } }] }] }),
    );
    expect(answer.message).toBe('pods "i-p1" is forbidden: node "i-n1" can not create pods that reference secrets');
    answer = await call(
      "POST",
      podsPath,
      mirrorPod(nodeUid, { volumes: [{ name: "v", persistentVolumeClaim: { claimName: "c" } }] }),
    );
    expect(answer.message).toBe(
      'pods "i-p1" is forbidden: node "i-n1" can not create pods that reference persistentvolumeclaims',
    );
    answer = await call("POST", podsPath, mirrorPod(nodeUid));
    expect(answer.code).toBe(201);
  });

  it("lets a node update the status of its pods but not their labels, and delete them", async () => {
    const pod = (await call("GET", `${podsPath}/i-p1`)).body;
    const relabelled = { ...pod, metadata: { ...(pod.metadata as object), labels: { a: "b" } } };
    let answer = await call("PUT", `${podsPath}/i-p1/status`, relabelled);
    expect(answer.message).toBe('pods "i-p1" is forbidden: node "i-n1" cannot update labels through pod status');
    answer = await call("DELETE", `${podsPath}/i-p1`);
    expect(answer.code).toBe(200);
  });

  it("keeps a node to its own lease in kube-node-lease", async () => {
    const lease = (name: string) => ({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name } });
    let answer = await call("POST", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", lease("other"));
    expect(answer.message).toBe(
      'leases.coordination.k8s.io "other" is forbidden: can only access node lease with the same name as the requesting node',
    );
    answer = await call("POST", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", lease("i-n1"));
    expect(answer.code).toBe(201);
  });

  it("lets a node ask only for node certificates of its own name", async () => {
    const csr = (cn: string) => ({
      apiVersion: "certificates.k8s.io/v1",
      kind: "CertificateSigningRequest",
      metadata: { name: "i-c1" },
      spec: {
        signerName: "kubernetes.io/kube-apiserver-client-kubelet",
        usages: ["client auth"],
        request: nodeCertificateRequest(cn),
      },
    });
    const path = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
    let answer = await call("POST", path, csr("system:node:i-n9"));
    expect(answer.message).toBe(
      'certificatesigningrequests.certificates.k8s.io "i-c1" is forbidden: can only create a node CSR with CN=system:node:i-n1',
    );
    answer = await call("POST", path, csr("system:node:i-n1"));
    expect(answer.code).toBe(201);
  });
});
