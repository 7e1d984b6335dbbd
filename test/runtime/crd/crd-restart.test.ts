// A server restarting on a kept store serves the custom resources of established definitions (restored
// before it counts as started) with their objects.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../../runtime/index.js";
import { SqliteStore } from "../../../runtime/storage/sqlite-store.js";
import { eventually } from "../controllers/controller-harness.js";

const token = "crd-restart-token";
const items = "/apis/restart.example.com/v1/namespaces/default/bolts";

const definition = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "bolts.restart.example.com" },
  spec: {
    group: "restart.example.com",
    scope: "Namespaced",
    names: { plural: "bolts", singular: "bolt", kind: "Bolt" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: { spec: { type: "object", properties: { size: { type: "integer" } } } },
          },
        },
      },
    ],
  },
};

describe("custom resources across a restart", () => {
  const dir = mkdtempSync(join(tmpdir(), "kapi-crd-restart-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("serves an established definition's resource and its objects after a restart", async () => {
    const path = join(dir, "kapi.db");
    const call = async (url: string, method: string, route: string, body?: unknown) => {
      const res = await fetch(url + route, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const first = await startServer({
      insecure: true,
      adminToken: token,
      controllers: false,
      store: SqliteStore.open(path),
    });
    expect(
      (await call(first.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", definition)).status,
    ).toBe(201);
    await eventually(async () => expect((await call(first.url, "GET", items)).status).toBe(200));
    const bolt = { apiVersion: "restart.example.com/v1", kind: "Bolt", metadata: { name: "b" }, spec: { size: 2 } };
    expect((await call(first.url, "POST", items, bolt)).status).toBe(201);
    await first.close();

    const second = await startServer({
      insecure: true,
      adminToken: token,
      controllers: false,
      store: SqliteStore.open(path),
      // No default policy to create: the server counts as started as soon as it listens.
      authorization: { authorizationMode: "AlwaysAllow" },
    });
    try {
      const read = await call(second.url, "GET", `${items}/b`);
      expect(read.status).toBe(200);
      expect(read.body.spec).toEqual({ size: 2 });
    } finally {
      await second.close();
    }
  });
});
