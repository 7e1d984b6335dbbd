// Calls through the golden case's typed clients: the right ones compile and the wrong ones must not, so
// `npm run typecheck` (and test/generator/emit/client.test.ts) fails when an expected error goes missing.
// Nothing here runs.

import type { StatefulSet } from "./generated.expected.d/apps/v1/types.js";
import { createClient } from "./generated.expected.d/client/index.js";
import type { ConfigMap } from "./generated.expected.d/core/v1/types.js";
import type { ApiClient } from "./sdk/api-client.js";

export async function typedCalls(api: ApiClient, statefulSet: StatefulSet): Promise<string[]> {
  const client = createClient(api);
  const settings: ConfigMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "s" }, data: { a: "b" } };
  const created: ConfigMap = await client.coreV1.configMaps.create(settings, { namespace: "default" });
  const page = await client.coreV1.configMaps.list({ namespace: "default", limit: 10 });
  await client.coreV1.namespaces.get("kube-system", {});
  await client.coreV1.bindings.create({ target: { name: "node-1" } }, { namespace: "default" });
  await client.appsV1.statefulSets.apply(statefulSet, { namespace: "default", fieldManager: "typed-calls" });
  const cidrs: string[] = [];
  for await (const event of client.networkingV1alpha1.ipPools.watch({})) {
    if (event.type !== "RELISTED") cidrs.push(event.object.spec?.cidr ?? "");
  }

  // @ts-expect-error a StatefulSet is not a ConfigMap
  await client.coreV1.configMaps.create(statefulSet, { namespace: "default" });
  // @ts-expect-error configmaps are namespaced: the namespace is required
  await client.coreV1.configMaps.get("s", {});
  // @ts-expect-error namespaces are cluster-scoped: no namespace may be named
  await client.coreV1.namespaces.get("kube-system", { namespace: "default" });
  // @ts-expect-error ConfigMap has no field `datum`
  await client.coreV1.configMaps.create({ metadata: { name: "s" }, datum: {} }, { namespace: "default" });
  // @ts-expect-error the list of a namespaced resource names its namespace too
  await client.appsV1.statefulSets.list({ limit: 1 });
  // @ts-expect-error an apiVersion of another group/version
  const wrongVersion: StatefulSet = { apiVersion: "v1" };

  return [
    created.metadata?.name ?? "",
    ...page.items.map((c) => c.metadata?.name ?? ""),
    String(wrongVersion),
    ...cidrs,
  ];
}
