// kapi's audit log against kube-apiserver's: the requests test/data/audit/reference-events.jsonl recorded (a
// kube-apiserver v1.36.2 with test/data/audit/policy.yaml), repeated over HTTP, give the same events once
// ids, times, uids and the admin user's name are normalized.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAuditFlags } from "../../../runtime/audit/audit-flags.js";
import { type RunningServer, startServer } from "../../../runtime/server/start-server.js";

const data = join(import.meta.dirname, "../../data/audit");
const token = "b-audit-admin-token";
const agent = "curl/7.88.1";

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (
      [
        "auditID",
        "requestReceivedTimestamp",
        "stageTimestamp",
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "time",
      ].includes(key)
    ) {
      out[key] = `<${key}>`;
    } else out[key] = normalize(item);
  }
  return out;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

/** The reference's admin user (a token-file user with a uid) and kapi's, as one. */
function sameAdmin(event: Record<string, unknown>): Record<string, unknown> {
  const user = event.user as Record<string, unknown>;
  if (user.username === "admin" || user.username === "kapi-admin") {
    return { ...event, user: { username: "<admin>", groups: user.groups } };
  }
  return event;
}

/**
 * kube-apiserver v1.36 authorizes impersonation by constrained impersonation first and records the verb that
 * allowed it (`authenticationMetadata.impersonationConstraint`); kapi's impersonation has no constraints yet.
 */
function withoutImpersonationConstraint(event: Record<string, unknown>): Record<string, unknown> {
  const { authenticationMetadata: _constraint, ...rest } = event;
  return rest;
}

function readEvents(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => withoutImpersonationConstraint(sameAdmin(normalize(JSON.parse(line)) as Record<string, unknown>)));
}

describe("audit log compared with kube-apiserver's", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-audit-"));
  const log = join(dir, "audit.log");
  let server: RunningServer;
  const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(server.url + path, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "user-agent": agent, ...init.headers },
    });

  beforeAll(async () => {
    const flags = parseAuditFlags({ "audit-policy-file": join(data, "policy.yaml"), "audit-log-path": log });
    server = await startServer({
      insecure: true,
      adminToken: token,
      controllers: false,
      ...(flags === undefined ? {} : { audit: { flags } }),
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes the events kube-apiserver writes for the same requests", async () => {
    const json = { "content-type": "application/json" };
    await (
      await call("/version", {
        headers: { "x-forwarded-for": "1.2.3.4, 5.6.7.8", "x-real-ip": "9.9.9.9", "user-agent": "b-agent" },
      })
    ).text();
    const own = await call("/version", { headers: { "audit-id": "my-own-id" } });
    expect(own.headers.get("audit-id")).toBe("my-own-id");
    await own.text();
    await (await call("/api")).text();
    for (const ns of ["b-rr", "b-req"]) {
      const body = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
      expect((await call("/api/v1/namespaces", { method: "POST", headers: json, body })).status).toBe(201);
    }
    for (const ns of ["b-rr", "b-req"]) {
      const body = JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm1" }, data: { a: "1" } });
      expect((await call(`/api/v1/namespaces/${ns}/configmaps`, { method: "POST", headers: json, body })).status).toBe(
        201,
      );
    }
    expect((await call("/api/v1/namespaces/b-rr/configmaps/nope")).status).toBe(404);
    expect((await call("/api/v1/namespaces/b-rr/configmaps/cm1")).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const refused = await fetch(`${server.url}/api`, {
        headers: { authorization: "Bearer wrong", "user-agent": agent },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("audit-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await fetch(`${server.url}/api/v1/namespaces`, { headers: { "user-agent": agent } })).status).toBe(403);
    expect(
      (await call("/api/v1/namespaces/b-rr/configmaps", { headers: { "impersonate-user": "b-user" } })).status,
    ).toBe(403);
    const scheduler = { "impersonate-user": "system:kube-scheduler" };
    expect((await call("/api/v1/namespaces/b-rr/pods", { headers: scheduler })).status).toBe(200);
    expect((await call("/api/v1/namespaces/b-rr/configmaps")).status).toBe(200);
    const patch = {
      method: "PATCH",
      headers: { "content-type": "application/merge-patch+json" },
      body: '{"data":{"b":"2"}}',
    };
    expect((await call("/api/v1/namespaces/b-rr/configmaps/cm1", patch)).status).toBe(200);
    const abort = new AbortController();
    const watch = await call("/api/v1/namespaces/b-rr/configmaps?watch=1", { signal: abort.signal });
    expect(watch.status).toBe(200);
    abort.abort();
    await watch.text().catch(() => "");
    const timed = await call("/api/v1/namespaces/b-rr/configmaps?watch=1&timeoutSeconds=1");
    await timed.text();
    expect((await call("/api/v1/namespaces/b-rr/configmaps/cm1", { method: "DELETE" })).status).toBe(200);

    const expected = readEvents(join(data, "reference-events.jsonl"));
    // Events of concurrent requests may interleave differently: compare them as sets.
    const written = readEvents(log);
    // kapi keeps an object's fields in its own order (its HTTP bodies too); the event's own fields are in kube's.
    const key = (e: Record<string, unknown>) => JSON.stringify(sortedKeys(e));
    const byKey = (events: Record<string, unknown>[]) => events.slice().sort((a, b) => key(a).localeCompare(key(b)));
    expect(byKey(written)).toEqual(byKey(expected));
    expect(byKey(written).map((e) => Object.keys(e))).toEqual(byKey(expected).map((e) => Object.keys(e)));
  });
});
