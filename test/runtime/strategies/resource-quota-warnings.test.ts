import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";

// Recorded from kube's resourcequota strategy (WarningsOnCreate): a request above its limit, on create only.
describe("ResourceQuota create warnings", () => {
  const token = "quota-warnings-token";
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
  });
  afterAll(async () => server.close());

  const send = (method: string, path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const quota = (hard: Record<string, string>, resourceVersion?: string) => ({
    apiVersion: "v1",
    kind: "ResourceQuota",
    metadata: { name: "q", ...(resourceVersion === undefined ? {} : { resourceVersion }) },
    spec: { hard },
  });

  it("warns when a hard request is above its limit, bare cpu and memory counting as requests", async () => {
    const created = await send(
      "POST",
      "/api/v1/namespaces/default/resourcequotas",
      quota({
        cpu: "2",
        "limits.cpu": "1",
        "requests.memory": "1Gi",
        "limits.memory": "2Gi",
        "requests.ephemeral-storage": "5Gi",
        "limits.ephemeral-storage": "1Gi",
      }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("warning")).toBe(
      '299 - "ResourceQuota cpu (2) should be less than limits.cpu (1)", 299 - "ResourceQuota requests.ephemeral-storage (5Gi) should be less than limits.ephemeral-storage (1Gi)"',
    );
    const { metadata } = (await created.json()) as { metadata: { resourceVersion: string } };
    const updated = await send(
      "PUT",
      "/api/v1/namespaces/default/resourcequotas/q",
      quota({ cpu: "3", "limits.cpu": "1" }, metadata.resourceVersion),
    );
    expect(updated.status).toBe(200);
    expect(updated.headers.get("warning")).toBeNull();
  });
});
