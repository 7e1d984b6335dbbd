// TaintNodesByCondition and DefaultIngressClass (on by default), OwnerReferencesPermissionEnforcement and
// DenyServiceExternalIPs (off by default, switched on here), driven by kubectl. Expected values are
// kube-apiserver v1.36.2's answers to the same requests (the off-by-default plugins: a kube-apiserver
// started with --enable-admission-plugins=OwnerReferencesPermissionEnforcement,DenyServiceExternalIPs).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../../e2e/kubectl-session.js";

describe.skipIf(!haveKubectl)("node and ingress admission plugins (default set)", () => {
  let s: KubectlSession;
  beforeAll(async () => {
    s = await startKubectlSession({ controllers: false });
    await s.kubectl("create", "namespace", "g-ns1");
  });
  afterAll(() => s?.close());

  it("taints a new Node not-ready unless a taint of that key and effect is there", async () => {
    const bare = s.file("node.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: g-node2}\n");
    expect(JSON.parse(await s.kubectl("create", "-f", bare, "-o", "jsonpath={.spec}"))).toEqual({
      taints: [{ effect: "NoSchedule", key: "node.kubernetes.io/not-ready" }],
    });
    const tainted = s.file(
      "node1.yaml",
      `apiVersion: v1
kind: Node
metadata: {name: g-node1}
spec:
  taints: [{key: node.kubernetes.io/not-ready, effect: NoSchedule, value: x}, {key: a, effect: NoExecute}]
`,
    );
    expect(JSON.parse(await s.kubectl("create", "-f", tainted, "-o", "jsonpath={.spec}"))).toEqual({
      taints: [
        { effect: "NoSchedule", key: "node.kubernetes.io/not-ready", value: "x" },
        { effect: "NoExecute", key: "a" },
      ],
    });
    // Updates are not the plugin's business.
    await s.kubectl("taint", "node", "g-node2", "node.kubernetes.io/not-ready:NoSchedule-");
    expect(await s.kubectl("get", "node", "g-node2", "-o", "jsonpath={.spec.taints}")).toBe("");
  });

  it("gives an Ingress without a class the newest default IngressClass", async () => {
    const ingress = (name: string, annotations = "") => `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: ${name}
  ${annotations}
spec:
  defaultBackend: {service: {name: s, port: {number: 80}}}
`;
    const none = await s.kubectl(
      "create",
      "-n",
      "g-ns1",
      "-f",
      s.file("i0.yaml", ingress("g-ing0")),
      "-o",
      "jsonpath={.spec}",
    );
    expect(JSON.parse(none)).toEqual({ defaultBackend: { service: { name: "s", port: { number: 80 } } } });
    await s.kubectl(
      "create",
      "-f",
      s.file(
        "ic.yaml",
        `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: g-ic
  annotations: {ingressclass.kubernetes.io/is-default-class: "true"}
spec: {controller: example.com/ingress}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: g-ic-b
  annotations: {ingressclass.kubernetes.io/is-default-class: "true"}
spec: {controller: example.com/ingress}
`,
      ),
    );
    // Both created in one second: the first by name, as kube's answer shows; else the newer, g-ic-b.
    const classes = JSON.parse(await s.kubectl("get", "ingressclass", "-o", "json")) as {
      items: { metadata: { name: string; creationTimestamp: string } }[];
    };
    const sameSecond = classes.items[0]?.metadata.creationTimestamp === classes.items[1]?.metadata.creationTimestamp;
    const chosen = JSON.parse(
      await s.kubectl("create", "-n", "g-ns1", "-f", s.file("i1.yaml", ingress("g-ing1")), "-o", "jsonpath={.spec}"),
    );
    expect(chosen).toEqual({
      defaultBackend: { service: { name: "s", port: { number: 80 } } },
      ingressClassName: sameSecond ? "g-ic" : "g-ic-b",
    });
    const annotated = await s.kubectl(
      "create",
      "-n",
      "g-ns1",
      "-f",
      s.file("i2.yaml", ingress("g-ing2", "annotations: {kubernetes.io/ingress.class: nginx}")),
      "-o",
      "jsonpath={.spec}",
    );
    expect(JSON.parse(annotated)).toEqual({ defaultBackend: { service: { name: "s", port: { number: 80 } } } });
  });
});

describe.skipIf(!haveKubectl)("OwnerReferencesPermissionEnforcement and DenyServiceExternalIPs (enabled)", () => {
  let s: KubectlSession;
  let ownerUid: string;
  beforeAll(async () => {
    s = await startKubectlSession({
      controllers: false,
      admission: { enablePlugins: ["OwnerReferencesPermissionEnforcement", "DenyServiceExternalIPs"] },
    });
    await s.kubectl("create", "namespace", "g-ns1");
    await s.kubectl(
      "create",
      "role",
      "g-edit",
      "-n",
      "g-ns1",
      "--verb=get,create,update,patch",
      "--resource=configmaps",
    );
    await s.kubectl("create", "rolebinding", "g-edit", "-n", "g-ns1", "--role=g-edit", "--user=g-user");
    await s.kubectl("create", "configmap", "-n", "g-ns1", "g-owner");
    ownerUid = await s.kubectl("get", "configmap", "-n", "g-ns1", "g-owner", "-o", "jsonpath={.metadata.uid}");
  });
  afterAll(() => s?.close());

  const dependent = (name: string, ref: Record<string, unknown>) =>
    JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, namespace: "g-ns1", ownerReferences: [{ name: "g-owner", uid: ownerUid, ...ref }] },
    });

  it("asks for delete on the object and update on the owner's finalizers, with kube's texts", async () => {
    const blocking = s.file(
      "dep.json",
      dependent("g-dep", { apiVersion: "v1", kind: "ConfigMap", blockOwnerDeletion: true }),
    );
    expect(await s.kubectlError("create", "-f", blocking, "--as=g-user")).toBe(
      `Error from server (Forbidden): error when creating "${blocking}": configmaps "g-dep" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>\n`,
    );
    const plain = s.file(
      "dep2.json",
      dependent("g-dep", { apiVersion: "v1", kind: "ConfigMap", blockOwnerDeletion: false }),
    );
    expect(await s.kubectl("create", "-f", plain, "--as=g-user", "-o", "name")).toBe("configmap/g-dep\n");
    expect(
      await s.kubectlError(
        "patch",
        "cm",
        "g-dep",
        "-n",
        "g-ns1",
        "--as=g-user",
        "--type=json",
        "-p",
        '[{"op":"remove","path":"/metadata/ownerReferences"}]',
      ),
    ).toBe(
      `Error from server (Forbidden): configmaps "g-dep" is forbidden: cannot set an ownerRef on a resource you can't delete: , <nil>\n`,
    );
    // Changes that leave the references alone need nothing more.
    expect(await s.kubectl("label", "cm", "g-dep", "-n", "g-ns1", "--as=g-user", "a=b")).toBe(
      "configmap/g-dep labeled\n",
    );
    // The admin may do all of it.
    expect(await s.kubectl("create", "-f", blocking.replace("g-dep", "g-dep"), "--dry-run=server", "-o", "name")).toBe(
      "configmap/g-dep\n",
    );
  });

  it("refuses a blocking reference to a kind nobody serves", async () => {
    for (const apiVersion of ["v1", "apps/v1"]) {
      const file = s.file("dep3.json", dependent("g-dep2", { apiVersion, kind: "Foo", blockOwnerDeletion: true }));
      expect(await s.kubectlError("create", "-f", file, "--as=g-user")).toBe(
        `Error from server (Forbidden): error when creating "${file}": configmaps "g-dep2" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${apiVersion} Kind Foo: no matches for kind "Foo" in version "${apiVersion}"\n`,
      );
    }
  });

  it("refuses new external IPs on Services", async () => {
    const withIPs = s.file(
      "svc.yaml",
      "apiVersion: v1\nkind: Service\nmetadata: {name: g-svc}\nspec: {ports: [{port: 80}], externalIPs: [1.2.3.4]}\n",
    );
    expect(await s.kubectlError("create", "-n", "g-ns1", "-f", withIPs)).toBe(
      `Error from server (Forbidden): error when creating "${withIPs}": services "g-svc" is forbidden: Use of external IPs is denied by admission control\n`,
    );
    await s.kubectl(
      "create",
      "-n",
      "g-ns1",
      "-f",
      s.file("svc2.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: g-svc}\nspec: {ports: [{port: 80}]}\n"),
    );
    const res = await s.server.request({
      method: "PATCH",
      path: "/api/v1/namespaces/g-ns1/services/g-svc",
      headers: { "content-type": "application/merge-patch+json" },
      body: JSON.stringify({ spec: { externalIPs: ["1.2.3.4"] } }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'services "g-svc" is forbidden: Use of external IPs is denied by admission control',
      reason: "Forbidden",
      details: { name: "g-svc", kind: "services" },
      code: 403,
    });
  });
});
