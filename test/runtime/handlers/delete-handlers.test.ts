// DeleteOptions as kube-apiserver reads them: from the body when there is one (the query is then ignored
// entirely), else from the query; a body field of the wrong JSON type, or a body of another kind, is a 400
// in Go's words. Every answer below was checked against kube-apiserver v1.36.2.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";

const token = "delete-options-token";
const configMaps = "/api/v1/namespaces/h4/configmaps";

describe("DeleteOptions", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    await call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "h4" } });
  });
  afterAll(() => server.close());

  async function call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; message: string | undefined }> {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    return { status: res.status, message: ((await res.json()) as { message?: string }).message };
  }

  async function configMap(name: string): Promise<string> {
    await call("POST", configMaps, { apiVersion: "v1", kind: "ConfigMap", metadata: { name } });
    return `${configMaps}/${name}`;
  }

  const options = (fields: Record<string, unknown>) =>
    JSON.stringify({ kind: "DeleteOptions", apiVersion: "v1", dryRun: ["All"], ...fields });

  it.each([
    [
      options({ dryRun: "All" }),
      "json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string",
    ],
    [
      options({ dryRun: [1] }),
      "json: cannot unmarshal number into Go struct field DeleteOptions.dryRun of type string",
    ],
    [
      options({ gracePeriodSeconds: "5" }),
      "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64",
    ],
    [
      options({ gracePeriodSeconds: 1.5 }),
      "json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64",
    ],
    [
      options({ orphanDependents: "true" }),
      "json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool",
    ],
    [
      options({ preconditions: false }),
      "json: cannot unmarshal bool into Go struct field DeleteOptions.preconditions of type v1.Preconditions",
    ],
    [
      options({ ignoreStoreReadErrorWithClusterBreakingPotential: "x" }),
      "json: cannot unmarshal string into Go struct field DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential of type bool",
    ],
    [
      options({ kind: "Dup" }),
      'no kind "Dup" is registered for version "v1" in scheme "pkg/apis/meta/internalversion/scheme/register.go:27"',
    ],
    [
      JSON.stringify({ kind: "Dup", dryRun: ["All"] }),
      'no kind "Dup" is registered for version "meta.k8s.io/v1" in scheme "pkg/apis/meta/internalversion/scheme/register.go:27"',
    ],
  ])("refuses the body %s with a 400", async (body, message) => {
    const path = await configMap("typed");
    expect(await call("DELETE", path, body)).toEqual({ status: 400, message });
    expect((await call("GET", path)).status).toBe(200);
  });

  it("refuses a body field whose Go type kapi's table names otherwise with the same 400", async () => {
    // kube names the types v1.DeletionPropagation and types.UID; the status is the same.
    const path = await configMap("named-types");
    const policy = await call("DELETE", path, options({ propagationPolicy: ["Background"] }));
    expect(policy.status).toBe(400);
    expect(policy.message).toMatch(
      /^json: cannot unmarshal array into Go struct field DeleteOptions.propagationPolicy /,
    );
    const uid = await call("DELETE", path, options({ preconditions: { uid: 5 } }));
    expect(uid.status).toBe(400);
    expect(uid.message).toMatch(/^json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid /);
  });

  it("takes a repeated All as a dry run, in the body and in the query", async () => {
    const path = await configMap("twice");
    expect((await call("DELETE", path, options({ dryRun: ["All", "All"] }))).status).toBe(200);
    expect((await call("DELETE", `${path}?dryRun=All&dryRun=All`)).status).toBe(200);
    expect((await call("GET", path)).status).toBe(200);
  });

  it("reads a null in the dryRun list as the empty string", async () => {
    const path = await configMap("null-dry-run");
    expect(await call("DELETE", path, options({ dryRun: [null] }))).toEqual({
      status: 422,
      message: 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: [""]: supported values: "All"',
    });
  });

  it("ignores the query when there is a body: dryRun=All with a body of {} deletes", async () => {
    const path = await configMap("body-wins");
    expect((await call("DELETE", `${path}?dryRun=All`, "{}")).status).toBe(200);
    expect((await call("GET", path)).status).toBe(404);
  });
});
