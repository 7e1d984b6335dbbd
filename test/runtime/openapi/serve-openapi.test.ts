import { createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedGroupVersion } from "../../../runtime/discovery/served.js";
import { writeError } from "../../../runtime/http/write-error.js";
import { OpenApiDocuments } from "../../../runtime/openapi/openapi-documents.js";
import { serveOpenApi } from "../../../runtime/openapi/serve-openapi.js";

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type Index = { paths: Record<string, { serverRelativeURL: string }> };

const protobufV2 = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

const widgets: ServedGroupVersion = {
  group: "example.kapi.dev",
  version: "v1",
  groupPriority: 0,
  versionPriority: 0,
  enabledByDefault: true,
  resources: [
    {
      plural: "widgets",
      singular: "widget",
      kind: "Widget",
      namespaced: true,
      verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
      subresources: [{ name: "status", verbs: ["get", "patch", "update"] }],
      definition: "dev.kapi.example.v1.Widget",
      listDefinition: "dev.kapi.example.v1.WidgetList",
    },
  ],
};

function widgetSchemas(portType: string) {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const gvk = (kind: string) => [{ group: "example.kapi.dev", kind, version: "v1" }];
  return {
    "dev.kapi.example.v1.Widget": {
      type: "object",
      properties: {
        apiVersion: { type: "string" },
        kind: { type: "string" },
        metadata: ref("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"),
        spec: {
          type: "object",
          properties: {
            ports: {
              type: "array",
              items: { type: "object", properties: { port: { type: portType } }, required: ["port"] },
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["port"],
            },
          },
        },
      },
      "x-kubernetes-group-version-kind": gvk("Widget"),
    },
    "dev.kapi.example.v1.WidgetList": {
      type: "object",
      properties: {
        items: { type: "array", items: ref("dev.kapi.example.v1.Widget") },
        metadata: ref("io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"),
      },
      "x-kubernetes-group-version-kind": gvk("WidgetList"),
    },
  };
}

describe("serving OpenAPI documents", () => {
  const documents = new OpenApiDocuments();
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://kapi");
      serveOpenApi({ req, res, url, path: url.pathname }, documents).catch((error: unknown) =>
        writeError(res, error, () => {}),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      request({ host: "127.0.0.1", port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on("error", reject)
        .end();
    });
  const json = (answer: Answer) => JSON.parse(answer.body.toString()) as Record<string, unknown>;
  const index = async () => json(await get("/openapi/v3")) as Index;

  describe("/openapi/v2", () => {
    it("answers JSON by default with kube-openapi's ETag, Vary and Last-Modified", async () => {
      const res = await get("/openapi/v2");
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json");
      expect(res.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
      expect(res.headers.vary).toBe("Accept, Accept-Encoding");
      expect(Date.parse(res.headers["last-modified"] ?? "")).not.toBeNaN();
      expect(json(res)).toMatchObject({ swagger: "2.0", info: { title: "Kubernetes", version: "v1.36.2" } });
    });

    it("gzips for clients that accept it and marks the ETag", async () => {
      const plain = await get("/openapi/v2");
      const res = await get("/openapi/v2", { "accept-encoding": "gzip, deflate" });
      expect(res.headers["content-encoding"]).toBe("gzip");
      expect(res.headers.etag).toBe(`${plain.headers.etag?.slice(0, -1)}-gzip"`);
      expect(gunzipSync(res.body).equals(plain.body)).toBe(true);
      expect((await get("/openapi/v2", { "accept-encoding": "gzip;q=0" })).headers["content-encoding"]).toBeUndefined();
    });

    it("answers 304 to a matching If-None-Match or an unchanged If-Modified-Since", async () => {
      const first = await get("/openapi/v2");
      const etag = first.headers.etag ?? "";
      const cached = await get("/openapi/v2", { "if-none-match": `"other", W/${etag}` });
      expect(cached.status).toBe(304);
      expect(cached.body.length).toBe(0);
      expect(cached.headers.etag).toBe(etag);
      expect(cached.headers["content-type"]).toBeUndefined();
      const since = await get("/openapi/v2", { "if-modified-since": first.headers["last-modified"] ?? "" });
      expect(since.status).toBe(304);
      expect((await get("/openapi/v2", { "if-none-match": '"stale"' })).status).toBe(200);
    });

    it("answers gnostic's protobuf Document to client-go's Accept, under the current media type name", async () => {
      const res = await get("/openapi/v2", { accept: protobufV2 });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
      expect(res.headers.etag).toBe((await get("/openapi/v2")).headers.etag);
      const root = new protobuf.Root();
      root.loadSync(fileURLToPath(new URL("../../../runtime/openapi/gnostic-openapi-v2.proto", import.meta.url)));
      const doc = root.lookupType("openapi.v2.Document").decode(res.body) as unknown as { swagger: string };
      expect(doc.swagger).toBe("2.0");
      const accept = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf;q=0.9, application/json;q=0.5";
      expect((await get("/openapi/v2", { accept })).headers["content-type"]).toContain("protobuf");
    });

    it("answers 406 with no body when no clause names JSON or protobuf", async () => {
      const res = await get("/openapi/v2", { accept: "text/html, application/yaml" });
      expect(res.status).toBe(406);
      expect(res.body.length).toBe(0);
      expect((await get("/openapi/v2", { accept: "text/html, */*;q=0.1" })).status).toBe(200);
    });
  });

  describe("/openapi/v3", () => {
    it("lists every document with the hash of its content, which is its ETag", async () => {
      const res = await get("/openapi/v3", { accept: "text/html" });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json");
      const { paths } = json(res) as Index;
      expect(Object.keys(paths)).toEqual(expect.arrayContaining(["api/v1", "apis/apps", "apis/apps/v1"]));
      for (const [path, { serverRelativeURL }] of Object.entries(paths)) {
        const hash = /\?hash=([0-9A-F]{128})$/.exec(serverRelativeURL)?.[1];
        expect(serverRelativeURL.startsWith(`/openapi/v3/${path}?`)).toBe(true);
        expect((await get(`/openapi/v3/${path}`)).headers.etag, path).toBe(`"${hash}"`);
      }
    });

    it("caches a document named by its current hash for good and redirects a stale one", async () => {
      const url = (await index()).paths["apis/apps/v1"]?.serverRelativeURL ?? "";
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(res.headers["cache-control"]).toBe("public, immutable");
      expect(Date.parse(res.headers.expires ?? "") - Date.now()).toBeGreaterThan(360 * 24 * 3600 * 1000);
      expect(res.headers.vary).toBe("Accept, Accept-Encoding");
      expect(json(res)).toMatchObject({ openapi: "3.0.0" });
      const stale = await get("/openapi/v3/apis/apps/v1?hash=0123");
      expect(stale.status).toBe(301);
      expect(stale.headers.location).toBe(url);
      const unhashed = await get("/openapi/v3/apis/apps/v1");
      expect(unhashed.headers["cache-control"]).toBeUndefined();
      expect((await get("/openapi/v3/apis/apps/v1", { "if-none-match": unhashed.headers.etag ?? "" })).status).toBe(
        304,
      );
    });

    it("gzips JSON under the same ETag, has no protobuf form, and does not know other paths", async () => {
      const plain = await get("/openapi/v3/api/v1");
      const zipped = await get("/openapi/v3/api/v1", { "accept-encoding": "gzip" });
      expect(zipped.headers["content-encoding"]).toBe("gzip");
      expect(zipped.headers.etag).toBe(plain.headers.etag);
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
      const protobufOnly = await get("/openapi/v3/api/v1", {
        accept: "application/com.github.proto-openapi.spec.v3@v1.0+protobuf",
      });
      expect(protobufOnly.status).toBe(406);
      const missing = await get("/openapi/v3/apis/nope/v1");
      expect(missing.status).toBe(404);
      expect(json(missing)).toMatchObject({ kind: "Status", reason: "NotFound" });
    });
  });

  describe("group/versions registered at run time", () => {
    it("appear in the v3 index, their own v3 document and /openapi/v2, and go again", async () => {
      const before = await get("/openapi/v3");
      const v2Before = await get("/openapi/v2");
      await documents.setGroupVersion(widgets, widgetSchemas("integer"));

      const after = await get("/openapi/v3", { "if-none-match": before.headers.etag ?? "" });
      expect(after.status).toBe(200);
      const url = (json(after) as Index).paths["apis/example.kapi.dev/v1"]?.serverRelativeURL ?? "";
      expect(url).toMatch(/^\/openapi\/v3\/apis\/example\.kapi\.dev\/v1\?hash=[0-9A-F]{128}$/);
      const doc = json(await get(url)) as {
        paths: Record<string, Record<string, { operationId?: string }>>;
        components: { schemas: Record<string, Record<string, unknown>> };
      };
      expect(
        doc.paths["/apis/example.kapi.dev/v1/namespaces/{namespace}/widgets/{name}/status"]?.patch?.operationId,
      ).toBe("patchExampleKapiDevV1NamespacedWidgetStatus");
      expect(doc.paths["/apis/example.kapi.dev/v1/"]).toBeUndefined();
      expect(Object.keys(doc.components.schemas)).toEqual(
        expect.arrayContaining([
          "dev.kapi.example.v1.Widget",
          "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
          "io.k8s.apimachinery.pkg.apis.meta.v1.Patch",
        ]),
      );
      expect(doc.components.schemas["io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"]).toMatchObject({
        "x-kubernetes-group-version-kind": expect.arrayContaining([
          { group: "example.kapi.dev", kind: "DeleteOptions", version: "v1" },
        ]),
      });

      const v2 = await get("/openapi/v2");
      expect(v2.headers.etag).not.toBe(v2Before.headers.etag);
      const swagger = json(v2) as { paths: Record<string, unknown>; definitions: Record<string, unknown> };
      expect(swagger.paths["/apis/example.kapi.dev/v1/widgets"]).toBeDefined();
      expect(swagger.definitions["dev.kapi.example.v1.Widget"]).toMatchObject({
        properties: { metadata: { $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" } },
      });
      const v2Protobuf = await get("/openapi/v2", { accept: protobufV2 });
      expect(v2Protobuf.body.includes("dev.kapi.example.v1.Widget")).toBe(true);

      // New content for the same group/version: a new hash, and the old URL redirects to it.
      await documents.setGroupVersion(widgets, widgetSchemas("string"));
      const changed = (await index()).paths["apis/example.kapi.dev/v1"]?.serverRelativeURL ?? "";
      expect(changed).not.toBe(url);
      const redirect = await get(url);
      expect(redirect.status).toBe(301);
      expect(redirect.headers.location).toBe(changed);

      expect(documents.removeGroupVersion("example.kapi.dev", "v1")).toBe(true);
      expect(documents.removeGroupVersion("example.kapi.dev", "v1")).toBe(false);
      expect((await get("/openapi/v3")).headers.etag).toBe(before.headers.etag);
      expect((await get(url)).status).toBe(404);
      expect((await get("/openapi/v2")).headers.etag).toBe(v2Before.headers.etag);
    });

    it("cannot replace a built-in group/version", async () => {
      await expect(documents.setGroupVersion({ ...widgets, group: "apps" }, {})).rejects.toThrow(/built in/);
    });

    it("must bring every schema their operations refer to beyond the shared meta definitions", async () => {
      const { "dev.kapi.example.v1.WidgetList": _, ...withoutList } = widgetSchemas("integer");
      await expect(documents.setGroupVersion(widgets, withoutList)).rejects.toThrow(/WidgetList is not defined/);
    });
  });
});
