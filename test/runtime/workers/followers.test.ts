// Several servers on one store, as `kapi serve --workers N` runs them: a primary server owning the store
// (controllers, bootstrap writes) and two followers reaching it over a store link each, every message
// structured-cloned as over a worker's IPC channel.
import { MessageChannel } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer, watchEvents } from "../../../runtime/index.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { RemoteStore } from "../../../runtime/storage/remote-store.js";
import { portLink } from "../../../runtime/storage/store-link.js";
import { serveStore } from "../../../runtime/storage/store-server.js";

const configMaps = "/api/v1/namespaces/default/configmaps";
const configMap = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { at: name } });

interface Meta {
  metadata: { name: string; resourceVersion: string };
}

function remoteStore(owned: MemoryStore): RemoteStore {
  const { port1, port2 } = new MessageChannel();
  serveStore(owned, portLink(port2));
  return new RemoteStore(portLink(port1));
}

describe("two followers on one primary's store", () => {
  const store = new MemoryStore();
  let primary: InProcessServer;
  let a: InProcessServer;
  let b: InProcessServer;

  beforeAll(async () => {
    primary = await startServer({ listen: false, store });
    const follower = { listen: false, adminToken: primary.adminToken, follower: true } as const;
    [a, b] = await Promise.all([
      startServer({ ...follower, store: remoteStore(store) }),
      startServer({ ...follower, store: remoteStore(store) }),
    ]);
    // Three servers start one after another; a loaded machine makes that slow.
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await primary?.close();
  });

  it("reads and watches through one what was written through the other, at the same resourceVersion", async () => {
    const list = (await (await b.request({ path: configMaps })).json()) as { metadata: { resourceVersion: string } };
    const watch = await b.request({ path: `${configMaps}?watch=1&resourceVersion=${list.metadata.resourceVersion}` });
    const events = watchEvents(watch);
    const created = await a.request({ method: "POST", path: configMaps, body: configMap("a-to-b") });
    expect(created.status).toBe(201);
    const { metadata } = (await created.json()) as Meta;
    // A consistent read on the other follower observes the acknowledged write.
    const read = await b.request({ path: `${configMaps}/a-to-b` });
    expect(read.status).toBe(200);
    expect(((await read.json()) as Meta).metadata.resourceVersion).toBe(metadata.resourceVersion);
    const first = await events.next();
    expect(first.value).toMatchObject({ type: "ADDED", object: { metadata } });
    await events.return(undefined);
  });

  it("gives concurrent creates across followers distinct increasing resourceVersions and loses no event", async () => {
    const start = (await (await a.request({ path: configMaps })).json()) as { metadata: { resourceVersion: string } };
    const from = start.metadata.resourceVersion;
    const watches = [a, b].map(async (server) =>
      watchEvents(await server.request({ path: `${configMaps}?watch=1&resourceVersion=${from}` })),
    );
    const n = 40;
    const results = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const server = i % 2 === 0 ? a : b;
        const res = await server.request({ method: "POST", path: configMaps, body: configMap(`many-${i}`) });
        expect(res.status).toBe(201);
        return (await res.json()) as Meta;
      }),
    );
    const versions = results.map((r) => Number(r.metadata.resourceVersion));
    expect(new Set(versions).size).toBe(n);
    const expected = results
      .map((r) => [Number(r.metadata.resourceVersion), r.metadata.name] as const)
      .sort((x, y) => x[0] - y[0]);
    for (const events of await Promise.all(watches)) {
      const seen: (readonly [number, string])[] = [];
      while (seen.length < n) {
        const next = await events.next();
        if (next.done === true) break;
        const { metadata } = (next.value as unknown as { object: Meta }).object;
        seen.push([Number(metadata.resourceVersion), metadata.name]);
      }
      await events.return(undefined);
      // Every follower's watch: all the creates, once each, in resourceVersion order.
      expect(seen).toEqual(expected);
    }
  });

  it("runs no controllers on a follower: the primary's created the system namespaces before they started", async () => {
    const res = await b.request({ path: "/api/v1/namespaces/kube-system" });
    expect(res.status).toBe(200);
    expect((await a.request({ path: "/readyz" })).status).toBe(200);
  });
});
