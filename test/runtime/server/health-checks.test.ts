// /livez, /readyz and /healthz of a started server, over HTTP, against kube-apiserver v1.36.2's answers
// (test/data/bootstrap/*-verbose.txt): kube's check names in kube's order, restricted to the checks kapi
// has (kube's aggregator and peer-proxy hooks, for instance, kapi does not run), which include at least
// the ones below.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/server/start-server.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";

const reference = (endpoint: string) =>
  readFileSync(new URL(`../../data/bootstrap/${endpoint}-verbose.txt`, import.meta.url), "utf8");

/** Checks kapi runs, by kube's names (start-up code may register more post-start hooks). */
const kapiChecks = new Set([
  "ping",
  "log",
  "etcd",
  "etcd-readiness",
  "informer-sync",
  "shutdown",
  "poststarthook/generic-apiserver-start-informers",
  "poststarthook/start-apiextensions-informers",
  "poststarthook/start-apiextensions-controllers",
  "poststarthook/crd-informer-synced",
  "poststarthook/start-system-namespaces-controller",
  "poststarthook/start-kube-apiserver-identity-lease-controller",
  "poststarthook/start-kube-apiserver-identity-lease-garbage-collector",
  "poststarthook/rbac/bootstrap-roles",
  "poststarthook/scheduling/bootstrap-system-priority-classes",
  "poststarthook/priority-and-fairness-config-producer",
  "poststarthook/start-apiserver-admission-initializer",
  "poststarthook/start-cluster-authentication-info-controller",
  "poststarthook/storage-readiness",
  "poststarthook/start-kube-aggregator-informers",
  "poststarthook/apiservice-status-local-available-controller",
  "poststarthook/kube-apiserver-autoregistration",
  "autoregister-completion",
]);

const checkNames = (body: string): string[] => body.match(/(?<=^\[[+-]\])\S+/gm) ?? [];

/** The reference's answer without the lines of checks kapi does not have. */
function referenceFor(endpoint: string, kapiHas: ReadonlySet<string>): string {
  return reference(endpoint)
    .split("\n")
    .filter((line) => {
      const check = /^\[[+-]\](\S+) /.exec(line)?.[1];
      return check === undefined || kapiHas.has(check);
    })
    .join("\n");
}

describe("health endpoints", () => {
  let server: RunningServer;
  const store = new MemoryStore();
  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    return { status: response.status, body: await response.text() };
  };

  beforeAll(async () => {
    server = await startServer({ insecure: true, store, log: () => {} });
  });
  afterAll(async () => {
    await server.close();
  });

  it("lists kube's checks in kube's order on each endpoint", async () => {
    for (const endpoint of ["livez", "readyz", "healthz"]) {
      const answer = await get(`/${endpoint}?verbose`);
      const names = new Set(checkNames(answer.body));
      // No name kube does not have on this endpoint, kube's order, and the checks above all there.
      expect([...names].filter((name) => !checkNames(reference(endpoint)).includes(name))).toEqual([]);
      expect(answer).toEqual({ status: 200, body: referenceFor(endpoint, names) });
      const expected = [...kapiChecks].filter((name) => checkNames(reference(endpoint)).includes(name));
      expect(expected.filter((name) => !names.has(name))).toEqual([]);
      expect(await get(`/${endpoint}`)).toEqual({ status: 200, body: "ok" });
    }
    // Every check listed above is one of kube's.
    const listed = new Set(checkNames(reference("readyz")));
    expect([...kapiChecks].filter((check) => !listed.has(check))).toEqual([]);
  });

  it("runs one check by its path, slashes included, as kube does", async () => {
    expect(await get("/readyz/poststarthook/rbac/bootstrap-roles")).toEqual({ status: 200, body: "ok" });
    expect(await get("/livez/poststarthook/scheduling/bootstrap-system-priority-classes")).toEqual({
      status: 200,
      body: "ok",
    });
    expect(await get("/readyz/etcd-readiness")).toEqual({ status: 200, body: "ok" });
    expect(await get("/healthz/log")).toEqual({ status: 200, body: "ok" });
    expect(await get("/readyz/shutdown")).toEqual({ status: 200, body: "ok" });
    // kube: 404 for a check the endpoint does not have.
    for (const path of ["/livez/etcd-readiness", "/livez/shutdown", "/readyz/poststarthook", "/readyz/ping/"]) {
      expect((await get(path)).status).toBe(404);
    }
  });

  it("excludes checks by name", async () => {
    const answer = await get("/readyz?verbose&exclude=etcd&exclude=poststarthook/rbac/bootstrap-roles");
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("[+]etcd excluded: ok\n[+]etcd-readiness ok\n");
    expect(answer.body).toContain("[+]poststarthook/rbac/bootstrap-roles excluded: ok\n");
  });

  it("fails etcd and etcd-readiness once the store is closed", async () => {
    await store.close();
    const ready = await get("/readyz?verbose");
    expect(ready.status).toBe(500);
    expect(ready.body).toContain("[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n");
    expect(ready.body.endsWith("readyz check failed\n")).toBe(true);
    expect(await get("/livez/etcd")).toEqual({
      status: 500,
      body: "internal server error: storage: store is closed\n",
    });
  });
});
