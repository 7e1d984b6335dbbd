// PATCH over HTTP: each patch type, the options kube validates, apply's create/update/dry-run/status paths,
// conflicts and preconditions, and managedFields as writes record them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";

const token = "patch-token";

interface Entry {
  manager: string;
  apiVersion: string;
  operation: string;
  subresource?: string;
  fieldsV1: Record<string, unknown>;
}

/** An object or a Status, as far as these tests read either. */
interface Answer {
  message?: string;
  reason?: string;
  details?: { causes?: unknown[] };
  data?: Record<string, string>;
  spec?: { replicas?: number };
  status?: { replicas?: number };
  metadata: { managedFields?: Entry[]; [key: string]: unknown };
}

describe("PATCH", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    await call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "p" } });
  });
  afterAll(() => server.close());

  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Answer }> {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Answer };
  }
  const patch = (path: string, type: string, body: unknown, headers: Record<string, string> = {}) =>
    call("PATCH", path, body, { "content-type": type, ...headers });
  const apply = (path: string, body: unknown, query = "fieldManager=tester") =>
    patch(`${path}?${query}`, "application/apply-patch+yaml", body);
  const managers = (obj: Answer) =>
    (obj.metadata.managedFields ?? []).map(
      (e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ""}`,
    );

  const cm = "/api/v1/namespaces/p/configmaps";
  const configMap = (name: string, data: Record<string, string>) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name },
    data,
  });

  it("refuses an unknown patch type with 415 listing the four", async () => {
    await call("POST", cm, configMap("t", { a: "1" }));
    const res = await patch(`${cm}/t`, "application/xml", "{}");
    expect(res.status).toBe(415);
    expect(res.body.message).toBe(
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml",
    );
  });

  it("validates the options as kube's ValidatePatchOptions", async () => {
    const noManager = await apply(`${cm}/t`, configMap("t", {}), "");
    expect(noManager.status).toBe(422);
    expect(noManager.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
    const forced = await patch(`${cm}/t?force=true`, "application/merge-patch+json", {});
    expect(forced.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
    const long = await call("POST", `${cm}?fieldManager=${"m".repeat(129)}`, configMap("long", {}));
    expect(long.body.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
    );
  });

  it("applies: creates (201), updates (200), leaves a dry run unwritten, refuses managedFields", async () => {
    const created = await apply(`${cm}/a`, configMap("a", { k: "1" }));
    expect(created.status).toBe(201);
    expect(managers(created.body)).toEqual(["tester/Apply"]);
    // An Apply entry holds what the configuration sets: no `.` for the map itself, as kube writes it.
    expect(created.body.metadata.managedFields?.[0]?.fieldsV1).toEqual({ "f:data": { "f:k": {} } });
    const updated = await apply(`${cm}/a`, configMap("a", { k: "2" }));
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({ k: "2" });
    const dry = await apply(`${cm}/a`, configMap("a", { k: "3" }), "fieldManager=tester&dryRun=All");
    expect(dry.body.data).toEqual({ k: "3" });
    expect((await call("GET", `${cm}/a`)).body.data).toEqual({ k: "2" });
    const withFields = await apply(`${cm}/a`, {
      ...configMap("a", {}),
      metadata: { name: "a", managedFields: [{ manager: "x" }] },
    });
    expect(withFields.status).toBe(400);
    expect(withFields.body.message).toBe("metadata.managedFields must be nil");
  });

  it("answers a conflicting apply 409 with a cause per field, and lets force take it", async () => {
    await apply(`${cm}/c`, configMap("c", { k: "1", j: "1" }));
    const conflict = await apply(`${cm}/c`, configMap("c", { k: "2" }), "fieldManager=other");
    expect(conflict.status).toBe(409);
    expect(conflict.body.reason).toBe("Conflict");
    expect(conflict.body.message).toBe('Apply failed with 1 conflict: conflict with "tester": .data.k');
    expect(conflict.body.details?.causes).toEqual([
      { reason: "FieldManagerConflict", message: 'conflict with "tester"', field: ".data.k" },
    ]);
    const forced = await apply(`${cm}/c`, configMap("c", { k: "2" }), "fieldManager=other&force=true");
    expect(forced.status).toBe(200);
    expect(managers(forced.body).sort()).toEqual(["other/Apply", "tester/Apply"]);
    // tester no longer applies j: released and, owned by nobody else, removed.
    const released = await apply(`${cm}/c`, configMap("c", {}));
    expect(released.body.data).toEqual({ k: "2" });
  });

  it("applies to the status subresource, recorded with subresource status", async () => {
    const path = "/apis/apps/v1/namespaces/p/deployments";
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d" },
      spec: {
        selector: { matchLabels: { app: "d" } },
        template: { metadata: { labels: { app: "d" } }, spec: { containers: [{ name: "c", image: "i" }] } },
      },
    };
    expect((await apply(`${path}/d`, deployment)).status).toBe(201);
    const status = await apply(
      `${path}/d/status`,
      { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" }, status: { replicas: 3 } },
      "fieldManager=controller",
    );
    expect(status.status).toBe(200);
    expect(status.body.status?.replicas).toBe(3);
    expect(managers(status.body).sort()).toEqual(["controller/Apply/status", "tester/Apply"]);
    const invalid = await apply(`${path}/d`, { ...deployment, spec: { ...deployment.spec, replicas: -1 } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toContain("spec.replicas: Invalid value: -1");
  });

  it("applies to the scale subresource: ownership of replicas moves between the parent and its Scale", async () => {
    const path = "/apis/apps/v1/namespaces/p/deployments";
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "s" },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: "s" } },
        template: { metadata: { labels: { app: "s" } }, spec: { containers: [{ name: "c", image: "i" }] } },
      },
    };
    await apply(`${path}/s`, deployment);
    const scale = (replicas: number) => ({
      apiVersion: "autoscaling/v1",
      kind: "Scale",
      metadata: { name: "s" },
      spec: { replicas },
    });
    const conflict = await apply(`${path}/s/scale`, scale(4), "fieldManager=autoscaler");
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('Apply failed with 1 conflict: conflict with "tester": .spec.replicas');
    const forced = await apply(`${path}/s/scale`, scale(4), "fieldManager=autoscaler&force=true");
    expect(forced.status).toBe(200);
    expect(forced.body.spec).toEqual({ replicas: 4 });
    const parent = (await call("GET", `${path}/s`)).body;
    expect(parent.spec?.replicas).toBe(4);
    const owners = (parent.metadata.managedFields ?? []).map((e) => [
      `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ""}`,
      JSON.stringify(e.fieldsV1).includes('"f:replicas"'),
    ]);
    expect(owners.sort()).toEqual([
      ["autoscaler/Apply/scale", true],
      ["tester/Apply", false],
    ]);
    expect(parent.metadata.managedFields?.find((e) => e.manager === "autoscaler")?.apiVersion).toBe("apps/v1");
  });

  it("treats a patched resourceVersion other than the stored one as a precondition", async () => {
    await call("POST", cm, configMap("rv", { a: "1" }));
    const stale = await patch(`${cm}/rv`, "application/json-patch+json", [
      { op: "replace", path: "/metadata/resourceVersion", value: "1" },
      { op: "replace", path: "/data/a", value: "2" },
    ]);
    expect(stale.status).toBe(409);
    const merge = await patch(`${cm}/rv`, "application/merge-patch+json", { data: { a: "3" } });
    expect(merge.status).toBe(200);
  });

  it("records non-apply writers by fieldManager, else by User-Agent, and resets managedFields with [{}]", async () => {
    const created = await call("POST", cm, configMap("ua", { a: "1" }), { "user-agent": "my-tool/1.0 (linux)" });
    expect(managers(created.body)).toEqual(["my-tool/Update"]);
    const patched = await patch(`${cm}/ua?fieldManager=patcher`, "application/strategic-merge-patch+json", {
      data: { b: "2" },
    });
    expect(managers(patched.body)).toEqual(["my-tool/Update", "patcher/Update"]);
    const kept = await call("PUT", `${cm}/ua`, {
      ...patched.body,
      metadata: { ...patched.body.metadata, managedFields: [] },
    });
    expect(managers(kept.body)).toEqual(["my-tool/Update", "patcher/Update"]);
    const reset = await call("PUT", `${cm}/ua`, {
      ...kept.body,
      metadata: { ...kept.body.metadata, managedFields: [{}] },
    });
    expect(reset.body.metadata.managedFields).toBeUndefined();
    // Reset and changed in one request: the change is the writer's.
    const resetAndChanged = await patch(`${cm}/ua?fieldManager=resetter`, "application/merge-patch+json", {
      metadata: { managedFields: [{}] },
      data: { c: "3" },
    });
    expect(resetAndChanged.body.metadata.managedFields?.map((e) => [e.manager, e.fieldsV1])).toEqual([
      ["resetter", { "f:data": { "f:c": {} } }],
    ]);
  });
});
