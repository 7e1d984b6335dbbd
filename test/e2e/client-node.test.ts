// @kubernetes/client-node against kapi, configured only by the kubeconfig text the server hands out: typed
// create and list, a watch that sees a create, an informer's cache, and the generic object client that
// resolves resources through discovery.

import type { V1ConfigMap } from "@kubernetes/client-node";
import { AppsV1Api, CoreV1Api, KubeConfig, KubernetesObjectApi, makeInformer, Watch } from "@kubernetes/client-node";
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
});
