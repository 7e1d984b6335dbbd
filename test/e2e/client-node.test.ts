// @kubernetes/client-node against kapi, configured only by the kubeconfig text the server hands out: typed
// create and list, a watch that sees a create, an informer's cache, and the generic object client that
// resolves resources through discovery; a CustomResourceDefinition and its custom objects.

import type { V1ConfigMap } from "@kubernetes/client-node";
import {
  ApiextensionsV1Api,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  Watch,
} from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../runtime/index.js";

const namespace = "client-node";

describe("@kubernetes/client-node against kapi", () => {
  let server: RunningServer;
  let kc: KubeConfig;
  let core: CoreV1Api;

  beforeAll(async () => {
    server = await startServer();
    kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
  });
  afterAll(() => server.close());

  const configMap = (name: string, data: Record<string, string>): V1ConfigMap => ({
    metadata: { name, namespace, labels: { app: "client-node" } },
    data,
  });

  it("creates and lists with the typed clients", async () => {
    const created = await core.createNamespacedConfigMap({ namespace, body: configMap("one", { a: "1" }) });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);
    const list = await core.listNamespacedConfigMap({ namespace, labelSelector: "app=client-node" });
    expect(list.items.map((c) => c.metadata?.name)).toEqual(["one"]);
    expect(list.metadata?.resourceVersion).toMatch(/^\d+$/);

    const apps = kc.makeApiClient(AppsV1Api);
    await apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: "web" },
        spec: {
          selector: { matchLabels: { app: "web" } },
          template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx" }] } },
        },
      },
    });
    const deployment = await apps.readNamespacedDeployment({ namespace, name: "web" });
    expect(deployment.spec?.replicas).toBe(1);
    expect(deployment.spec?.strategy?.type).toBe("RollingUpdate");
  });

  it("watches from a list's resourceVersion and sees a create", async () => {
    const list = await core.listNamespacedConfigMap({ namespace });
    const events: { type: string; name: string }[] = [];
    let seen: () => void = () => {};
    const added = new Promise<void>((resolve) => {
      seen = resolve;
    });
    const watch = new Watch(kc);
    const controller = await watch.watch(
      `/api/v1/namespaces/${namespace}/configmaps`,
      { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true },
      (type, object: V1ConfigMap) => {
        if (type === "BOOKMARK") return;
        events.push({ type, name: object.metadata?.name ?? "" });
        if (object.metadata?.name === "two") seen();
      },
      () => {},
    );
    await core.createNamespacedConfigMap({ namespace, body: configMap("two", { b: "2" }) });
    await added;
    controller.abort();
    expect(events).toEqual([{ type: "ADDED", name: "two" }]);
  });

  it("keeps an informer's cache in step with the server", async () => {
    const informer = makeInformer(kc, `/api/v1/namespaces/${namespace}/configmaps`, () =>
      core.listNamespacedConfigMap({ namespace }),
    );
    let sawThree: () => void = () => {};
    const three = new Promise<void>((resolve) => {
      sawThree = resolve;
    });
    informer.on("add", (object) => {
      if (object.metadata?.name === "three") sawThree();
    });
    await informer.start();
    expect(
      informer
        .list()
        .map((c) => c.metadata?.name)
        .sort(),
    ).toEqual(expect.arrayContaining(["one", "two"]));
    await core.createNamespacedConfigMap({ namespace, body: configMap("three", { c: "3" }) });
    await three;
    expect(informer.get("three", namespace)?.data).toEqual({ c: "3" });
    await informer.stop();
  });

  it("creates and reads any kind through the generic client, which resolves resources by discovery", async () => {
    const objects = KubernetesObjectApi.makeApiClient(kc);
    await objects.create({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: { name: "reader", namespace },
      rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list"] }],
    } as never);
    const role = await objects.read({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: { name: "reader", namespace },
    });
    expect((role as unknown as { rules: { verbs: string[] }[] }).rules[0]?.verbs).toEqual(["get", "list"]);
    const cluster = await objects.list("v1", "Namespace");
    expect(cluster.items.map((n) => n.metadata?.name)).toContain(namespace);
  });

  it("defines a custom resource and writes, patches, lists and deletes its objects", async () => {
    const extensions = kc.makeApiClient(ApiextensionsV1Api);
    await extensions.createCustomResourceDefinition({
      body: {
        metadata: { name: "gizmos.client.example.com" },
        spec: {
          group: "client.example.com",
          scope: "Namespaced",
          names: { plural: "gizmos", singular: "gizmo", kind: "Gizmo" },
          versions: [
            {
              name: "v1",
              served: true,
              storage: true,
              schema: {
                openAPIV3Schema: {
                  type: "object",
                  properties: {
                    spec: {
                      type: "object",
                      properties: { size: { type: "integer", _default: 1 }, color: { type: "string" } },
                      x_kubernetes_validations: [{ rule: "self.size <= 5", message: "size must be at most 5" }],
                    },
                  },
                },
              },
            },
          ],
        },
      },
    });
    const established = async () => {
      for (;;) {
        const crd = await extensions.readCustomResourceDefinition({ name: "gizmos.client.example.com" });
        if (crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True")) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await established();

    const custom = kc.makeApiClient(CustomObjectsApi);
    const where = { group: "client.example.com", version: "v1", namespace, plural: "gizmos" };
    const created = (await custom.createNamespacedCustomObject({
      ...where,
      body: { apiVersion: "client.example.com/v1", kind: "Gizmo", metadata: { name: "g" }, spec: { color: "red" } },
    })) as { spec: { size: number; color: string } };
    expect(created.spec).toEqual({ color: "red", size: 1 });

    await expect(
      custom.createNamespacedCustomObject({
        ...where,
        body: { apiVersion: "client.example.com/v1", kind: "Gizmo", metadata: { name: "big" }, spec: { size: 9 } },
      }),
    ).rejects.toMatchObject({ code: 422, body: expect.stringContaining("size must be at most 5") });

    const patched = (await custom.patchNamespacedCustomObject(
      { ...where, name: "g", body: { spec: { size: 3 } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    )) as { spec: { size: number } };
    expect(patched.spec.size).toBe(3);

    const list = (await custom.listNamespacedCustomObject(where)) as { items: { metadata: { name: string } }[] };
    expect(list.items.map((g) => g.metadata.name)).toEqual(["g"]);
    await custom.deleteNamespacedCustomObject({ ...where, name: "g" });
    const after = (await custom.listNamespacedCustomObject(where)) as { items: unknown[] };
    expect(after.items).toEqual([]);
  });
});
