// The feature gates kapi consults: with each one switched off, the feature goes away as it does on a
// kube-apiserver v1.36.2 started with the same --feature-gates (the answers below were recorded from it;
// with the defaults, the reference answers as the default servers here do).

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/server/start-server.js";
import { issueCa, issueCertificate, printable, uidAttribute } from "../authn/test-certificates.js";

const gatesOff = {
  WatchList: false,
  APIResponseCompression: false,
  StorageVersionHash: false,
  MutatingAdmissionPolicy: false,
  APIServerIdentity: false,
  // kube refuses APIServerIdentity off while this gate, which depends on it, is on.
  UnknownVersionInteroperabilityProxy: false,
  AllowParsingUserUIDFromCertAuth: false,
};

const dir = mkdtempSync(join(tmpdir(), "kapi-gates-"));
const clientCa = issueCa("gates-test-ca");
const clientCaFile = join(dir, "client-ca.crt");
writeFileSync(clientCaFile, clientCa.cert);
const withUid = issueCertificate(
  { commonName: "d2-user", organizations: ["system:masters"], attributes: [[uidAttribute, printable("uid-7")]] },
  clientCa,
);

let on: RunningServer;
let off: RunningServer;

beforeAll(async () => {
  const authentication = { clientCaFile };
  [on, off] = await Promise.all([
    startServer({ authentication }),
    startServer({ authentication, featureGates: gatesOff }),
  ]);
});
afterAll(async () => {
  await Promise.all([on.close(), off.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** The first `n` lines of a watch that ends by its timeout. */
async function watchLines(server: RunningServer, query: string): Promise<Record<string, unknown>[]> {
  const res = await server.request({ path: `/api/v1/namespaces/default/configmaps?watch=1&${query}` });
  const text = await res.text();
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("WatchList", () => {
  it("off: sendInitialEvents is refused with kube's Status", async () => {
    const res = await off.request({
      path: "/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      reason: "Invalid",
      details: {
        group: "meta.k8s.io",
        kind: "ListOptions",
        causes: [
          {
            reason: "FieldValueForbidden",
            message: "Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
            field: "sendInitialEvents",
          },
        ],
      },
      code: 422,
    });
  });

  it("off: a watch from now starts with the objects but without the initial-events-end bookmark", async () => {
    const query = "allowWatchBookmarks=true&timeoutSeconds=1";
    const withGate = await watchLines(on, query);
    const without = await watchLines(off, query);
    const initialEnd = (events: Record<string, unknown>[]) =>
      events.filter(
        (e) =>
          e.type === "BOOKMARK" &&
          (e.object as { metadata?: { annotations?: Record<string, string> } }).metadata?.annotations?.[
            "k8s.io/initial-events-end"
          ] === "true",
      );
    expect(initialEnd(withGate)).toHaveLength(1);
    expect(without.filter((e) => e.type === "ADDED").length).toBeGreaterThan(0);
    expect(initialEnd(without)).toEqual([]);
  });
});

describe("APIResponseCompression", () => {
  // Larger than the 128 KiB kube compresses above.
  const path = "/api/v1/namespaces/default/configmaps/large";
  const create = (server: RunningServer) =>
    server.request({
      method: "POST",
      path: "/api/v1/namespaces/default/configmaps",
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "large" }, data: { text: "x".repeat(200_000) } },
    });
  it("on: a large object is gzipped for a client that accepts it", async () => {
    expect((await create(on)).status).toBe(201);
    const res = await on.request({ path, headers: { "Accept-Encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });
  it("off: it is not", async () => {
    expect((await create(off)).status).toBe(201);
    const res = await off.request({ path, headers: { "Accept-Encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toBeNull();
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(128 * 1024);
  });
});

describe("StorageVersionHash", () => {
  it("off: discovery's resource lists carry no storageVersionHash", async () => {
    for (const path of ["/api/v1", "/apis/apps/v1"]) {
      expect(await (await on.request({ path })).text()).toContain('"storageVersionHash"');
      expect(await (await off.request({ path })).text()).not.toContain("storageVersionHash");
    }
  });
});

describe("MutatingAdmissionPolicy", () => {
  const policy = {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicy",
    metadata: { name: "add-label" },
    spec: {
      matchConstraints: {
        resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] }],
      },
      failurePolicy: "Fail",
      reinvocationPolicy: "Never",
      mutations: [
        {
          patchType: "ApplyConfiguration",
          applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"d2": "mutated"}}}' },
        },
      ],
    },
  };
  const binding = {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicyBinding",
    metadata: { name: "add-label" },
    spec: { policyName: "add-label" },
  };

  /** Labels of configmaps created until the policy took effect (or a few seconds passed, for the gate off). */
  async function labelsAfterPolicy(server: RunningServer): Promise<unknown> {
    const base = "/apis/admissionregistration.k8s.io/v1";
    expect(
      (await server.request({ method: "POST", path: `${base}/mutatingadmissionpolicies`, body: policy })).status,
    ).toBe(201);
    expect(
      (await server.request({ method: "POST", path: `${base}/mutatingadmissionpolicybindings`, body: binding })).status,
    ).toBe(201);
    let labels: unknown;
    for (let i = 0; i < 30; i++) {
      const res = await server.request({
        method: "POST",
        path: "/api/v1/namespaces/default/configmaps",
        body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `cm-${i}` } },
      });
      labels = ((await res.json()) as { metadata: { labels?: unknown } }).metadata.labels;
      if (labels !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return labels;
  }

  it("on: the policy mutates; off: the API is served and the plugin lets objects through untouched", async () => {
    expect(await labelsAfterPolicy(on)).toEqual({ d2: "mutated" });
    expect(await labelsAfterPolicy(off)).toBeUndefined();
  });
});

describe("APIServerIdentity", () => {
  const hooks = [
    "poststarthook/start-kube-apiserver-identity-lease-controller",
    "poststarthook/start-kube-apiserver-identity-lease-garbage-collector",
  ];
  it("off: no identity lease, and no identity lease hooks on the health endpoints", async () => {
    const checks = async (server: RunningServer) => await (await server.request({ path: "/readyz?verbose" })).text();
    for (const hook of hooks) {
      expect(await checks(on)).toContain(`[+]${hook} ok`);
      expect(await checks(off)).not.toContain(hook);
    }
    const leases = async (server: RunningServer) => {
      const res = await server.request({
        path: "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=apiserver.kubernetes.io%2Fidentity",
      });
      return ((await res.json()) as { items: unknown[] }).items.length;
    };
    expect(await leases(on)).toBe(1);
    expect(await leases(off)).toBe(0);
  });
});

describe("AllowParsingUserUIDFromCertAuth", () => {
  function selfSubjectReview(server: RunningServer): Promise<Record<string, unknown>> {
    const url = new URL("/apis/authentication.k8s.io/v1/selfsubjectreviews", server.url);
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        url,
        {
          method: "POST",
          cert: withUid.cert,
          key: withUid.key,
          rejectUnauthorized: false,
          headers: { "Content-Type": "application/json" },
        },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on("end", () =>
            resolve((JSON.parse(body) as { status: { userInfo: Record<string, unknown> } }).status.userInfo),
          );
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" }));
    });
  }

  it("off: a client certificate's uid attribute is not read", async () => {
    expect(await selfSubjectReview(on)).toMatchObject({ username: "d2-user", uid: "uid-7" });
    const user = await selfSubjectReview(off);
    expect(user).toMatchObject({ username: "d2-user", groups: ["system:masters", "system:authenticated"] });
    expect(user).not.toHaveProperty("uid");
  });
});
