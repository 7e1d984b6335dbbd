import { afterEach, describe, expect, it } from "vitest";
import { startNodeAuthorizer } from "../../../../runtime/authz/node/start-node-authorizer.js";
import { ResourceApi } from "../../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../../builtin-kinds.js";
import { eventually, kind } from "../../controllers/controller-harness.js";
import { resourceRequest } from "../authz-fixtures.js";
import { persistentVolume, pod } from "./node-fixtures.js";

const podKind = kind("", "v1", "Pod");
const pvKind = kind("", "v1", "PersistentVolume");
const vaKind = kind("storage.k8s.io", "v1", "VolumeAttachment");
const node1 = { name: "system:node:n1", groups: ["system:nodes"] };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function setup() {
  const store = new MemoryStore();
  const api = new ResourceApi({ kinds: builtinKinds(), store });
  const controller = new AbortController();
  const errors: unknown[] = [];
  cleanup = async () => {
    controller.abort();
    await started?.done;
    api.close();
    await store.close();
  };
  let started: ReturnType<typeof startNodeAuthorizer> | undefined;
  const start = () => {
    started = startNodeAuthorizer(api, { signal: controller.signal, log: (m, e) => errors.push([m, e]) });
    return started;
  };
  return { api, start, errors };
}

const secretRead = (name: string) => resourceRequest(node1, { resource: "secrets", namespace: "ns", name });

describe("Node authorizer graph feed", () => {
  it("is ready once the existing objects are in the graph, then follows changes", async () => {
    const { api, start, errors } = await setup();
    await api.create(
      { kind: podKind, namespace: "ns" },
      pod("ns", "web", "n1", { volumes: [{ name: "s", secret: { secretName: "early" } }] }),
    );
    await api.create({ kind: pvKind }, persistentVolume("pv1", { namespace: "ns", name: "data" }));
    const { authorizer, ready } = start();
    await ready;
    expect(authorizer.authorize(secretRead("early")).decision).toBe("allow");

    await api.create(
      { kind: podKind, namespace: "ns" },
      pod("ns", "db", "n1", {
        volumes: [
          { name: "s", secret: { secretName: "later" } },
          { name: "d", persistentVolumeClaim: { claimName: "data" } },
        ],
      }),
    );
    await eventually(() => expect(authorizer.authorize(secretRead("later")).decision).toBe("allow"));
    const pvRead = resourceRequest(node1, { resource: "persistentvolumes", namespace: "", name: "pv1" });
    expect(authorizer.authorize(pvRead).decision).toBe("allow");

    await api.create(
      { kind: vaKind },
      {
        metadata: { name: "va1" },
        spec: { attacher: "csi.example.com", nodeName: "n1", source: { persistentVolumeName: "pv1" } },
      },
    );
    const vaRead = resourceRequest(node1, {
      apiGroup: "storage.k8s.io",
      resource: "volumeattachments",
      namespace: "",
      name: "va1",
    });
    await eventually(() => expect(authorizer.authorize(vaRead).decision).toBe("allow"));

    await api.delete({ kind: podKind, namespace: "ns", name: "web" }, { gracePeriodSeconds: 0 });
    await eventually(() => expect(authorizer.authorize(secretRead("early")).decision).toBe("noOpinion"));
    expect(errors).toEqual([]);
  });
});
