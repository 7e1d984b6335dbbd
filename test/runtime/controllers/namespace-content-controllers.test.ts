import { afterEach, describe, expect, it } from "vitest";
import { systemNamespaces } from "../../../runtime/controllers/system-namespaces.js";
import {
  configMapKind,
  eventually,
  find,
  type Harness,
  metadata,
  namespaceKind,
  serviceAccountKind,
  startHarness,
} from "./controller-harness.js";

const caCert = "-----BEGIN CERTIFICATE-----\nMIIBkTCB+wIJAKapi\n-----END CERTIFICATE-----\n";
const description =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const account = (namespace: string) => ({ kind: serviceAccountKind, namespace, name: "default" });
const rootCa = (namespace: string) => ({ kind: configMapKind, namespace, name: "kube-root-ca.crt" });

describe("system namespaces", () => {
  it("exist once the controllers are ready", async () => {
    harness = await startHarness({ enabled: { garbageCollector: false, namespaces: false } });
    const { items } = await harness.api.list({ kind: namespaceKind });
    expect(items.map((i) => metadata(i.object).name).sort()).toEqual([...systemNamespaces].sort());
  });

  it("are not created when switched off", async () => {
    harness = await startHarness({ enabled: { systemNamespaces: false } });
    expect((await harness.api.list({ kind: namespaceKind })).items).toEqual([]);
  });
});

describe("service account controller", () => {
  it("creates the default ServiceAccount in every namespace and again after it is deleted", async () => {
    harness = await startHarness({ caCert });
    const h = harness;
    await h.api.create({ kind: namespaceKind }, { metadata: { name: "team" } });

    for (const namespace of [...systemNamespaces, "team"]) {
      await eventually(async () => expect(await find(h.api, account(namespace))).toBeDefined());
    }
    const first = await find(h.api, account("team"));
    expect(first).toMatchObject({
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "default", namespace: "team" },
    });

    await h.api.delete(account("team"));
    await eventually(async () => {
      const again = await find(h.api, account("team"));
      expect(metadata(again).uid).toBeDefined();
      expect(metadata(again).uid).not.toBe(metadata(first).uid);
    });
    expect(h.errors).toEqual([]);
  });
});

describe("root CA certificate publisher", () => {
  it("publishes kube-root-ca.crt into every namespace, restores its data and recreates it", async () => {
    harness = await startHarness({ caCert });
    const h = harness;
    await h.api.create({ kind: namespaceKind }, { metadata: { name: "team" } });

    for (const namespace of [...systemNamespaces, "team"]) {
      await eventually(async () => expect(await find(h.api, rootCa(namespace))).toBeDefined());
    }
    const published = await find(h.api, rootCa("team"));
    expect(published?.data).toEqual({ "ca.crt": caCert });
    expect(metadata(published).annotations).toEqual({ "kubernetes.io/description": description });

    const changed = structuredClone(published ?? {});
    changed.data = { "ca.crt": "tampered", extra: "x" };
    metadata(changed).annotations = { mine: "kept" };
    metadata(changed).labels = { mine: "kept" };
    await h.api.update(rootCa("team"), changed);
    await eventually(async () => {
      const restored = await find(h.api, rootCa("team"));
      expect(restored?.data).toEqual({ "ca.crt": caCert });
      expect(metadata(restored).annotations).toEqual({ mine: "kept", "kubernetes.io/description": description });
      expect(metadata(restored).labels).toEqual({ mine: "kept" });
    });

    await h.api.delete(rootCa("team"));
    await eventually(async () => {
      const again = await find(h.api, rootCa("team"));
      expect(again?.data).toEqual({ "ca.crt": caCert });
      expect(metadata(again).uid).not.toBe(metadata(published).uid);
    });
    expect(h.errors).toEqual([]);
  });

  it("publishes nothing without a CA certificate or when switched off", async () => {
    for (const options of [{ caCert, enabled: { rootCa: false } }, {}]) {
      await harness?.close();
      const h = await startHarness(options);
      harness = h;
      // The service account controller has handled the namespace, so the publisher would have too.
      await eventually(async () => expect(await find(h.api, account("default"))).toBeDefined());
      expect((await h.api.list({ kind: configMapKind })).items).toEqual([]);
    }
  });
});
