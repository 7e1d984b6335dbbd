// The namespace rules of ResourceClient's types: tsc checks `wrongCalls` (never run) over the test tree;
// the tests check what an untyped caller gets for the same mistakes.
import { describe, expect, it } from "vitest";
import type { ConfigMap } from "../../generated/core/v1/types.js";
import { ApiClient, type Informer, type ResourceClient, type WatchEvent } from "../../sdk/index.js";
import { typedClients } from "./client-fixture.js";

const api = ApiClient.fromKubeconfig({
  text: "clusters: [{name: c, cluster: {server: 'http://127.0.0.1:1'}}]\ncontexts: [{name: x, context: {cluster: c}}]\ncurrent-context: x\n",
});
const { configMaps, namespaces } = typedClients(api);

export async function wrongCalls(): Promise<void> {
  // @ts-expect-error a namespaced resource needs a namespace
  await configMaps.get("a", {});
  // @ts-expect-error a cluster-scoped resource takes none
  await namespaces.get("a", { namespace: "x" });
  // @ts-expect-error the object must be the resource's kind
  await configMaps.create({ metadata: { name: "a" }, data: "not a map" }, { namespace: "x" });
  // @ts-expect-error patch types are json, merge, strategic and apply
  await configMaps.patch("a", {}, "yaml", { namespace: "x" });
  // @ts-expect-error apply needs a field manager
  await configMaps.apply({ metadata: { name: "a" } }, { namespace: "x" });
  // @ts-expect-error propagation policies are kube's
  await configMaps.delete("a", { namespace: "x", propagationPolicy: "Cascade" });
  // @ts-expect-error informers of namespaced resources name their namespace
  configMaps.informer({});
  const event: WatchEvent<ConfigMap> = { type: "ADDED", object: {} };
  // @ts-expect-error a RELISTED event has items, not an object
  if (event.type === "RELISTED") void event.object;
  const typed: Informer<ConfigMap> = configMaps.informer({ namespace: "x", resyncPeriodMs: 1000 });
  const name: string | undefined = (await configMaps.list({ namespace: "" })).items[0]?.metadata?.name;
  void [typed, name, await namespaces.list({})];
}

describe("ResourceClient for untyped callers", () => {
  it("refuses to address a namespaced object without a namespace", async () => {
    const untyped = configMaps as unknown as ResourceClient<ConfigMap>;
    await expect(untyped.get("a", {} as never)).rejects.toThrow(
      new TypeError("a namespace is required to address a ConfigMap by name"),
    );
  });

  it("refuses to write an object without a name", async () => {
    await expect(configMaps.update({ metadata: {} }, { namespace: "x" })).rejects.toThrow(
      new TypeError("a ConfigMap needs metadata.name here"),
    );
  });
});
