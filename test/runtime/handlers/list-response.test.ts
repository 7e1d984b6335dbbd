// Lists large enough to be made and written in slices and pieces answer with the bytes the whole value
// encoded at once has: JSON assembled from the items' bytes, protobuf, Table and PartialObjectMetadataList.
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeObject } from "../../../runtime/codecs/encode-response.js";
import { envelopeRaw } from "../../../runtime/codecs/protobuf/envelope.js";
import { encodeProtobufList } from "../../../runtime/codecs/protobuf/protobuf-response.js";
import { type InProcessServer, startServer } from "../../../runtime/index.js";

const list = "/api/v1/namespaces/lists/configmaps";
const count = 300;
const protobuf = "application/vnd.kubernetes.protobuf";

describe("large lists", () => {
  let server: InProcessServer;

  async function get(path: string, accept = "application/json", gzip = false) {
    const res = await server.request({
      path,
      headers: { Accept: accept, ...(gzip ? { "Accept-Encoding": "gzip" } : {}) },
    });
    const raw = Buffer.from(await res.arrayBuffer());
    const bytes = res.headers.get("content-encoding") === "gzip" ? gunzipSync(raw) : raw;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(raw.length));
    return { bytes, res };
  }

  const compactJson = (value: unknown) => encodeObject({ kind: "json", pretty: false }, value).body;

  beforeAll(async () => {
    server = await startServer({ listen: false, controllers: false });
    await server.request({ method: "POST", path: "/api/v1/namespaces", body: { metadata: { name: "lists" } } });
    const create = async (i: number) => {
      const res = await server.request({
        method: "POST",
        path: list,
        body: {
          metadata: { name: `cm-${String(i).padStart(3, "0")}` },
          data: { text: `<&>\u2028 ${"x".repeat(1000)}` },
        },
      });
      expect(res.status).toBe(201);
    };
    for (let i = 0; i < count; i += 30) await Promise.all(Array.from({ length: 30 }, (_, j) => create(i + j)));
  }, 120_000);
  afterAll(() => server.close());

  it("writes JSON as the whole list encoded at once, compressed for a client that takes gzip", async () => {
    const plain = await get(list);
    const zipped = await get(list, "application/json", true);
    expect(zipped.res.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.bytes.equals(plain.bytes)).toBe(true);
    const value = JSON.parse(plain.bytes.toString()) as { items: { metadata: { name: string } }[] };
    expect(value.items).toHaveLength(count);
    expect(compactJson(value).equals(plain.bytes)).toBe(true);
    const one = await get(`${list}/cm-007`);
    const { kind: _kind, apiVersion: _apiVersion, ...item } = JSON.parse(one.bytes.toString());
    expect(value.items[7]).toEqual(item);
  });

  it("pages with the list's resourceVersion, continue and remainingItemCount", async () => {
    const whole = JSON.parse((await get(list)).bytes.toString());
    const first = JSON.parse((await get(`${list}?limit=120`)).bytes.toString());
    expect(first.metadata.remainingItemCount).toBe(count - 120);
    const rest = JSON.parse(
      (await get(`${list}?limit=500&continue=${encodeURIComponent(first.metadata.continue)}`)).bytes.toString(),
    );
    expect(rest.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect([...first.items, ...rest.items]).toEqual(whole.items);
  });

  it("writes protobuf as the list assembled from the items' messages", async () => {
    const { bytes } = await get(list, protobuf);
    const json = JSON.parse((await get(list)).bytes.toString());
    const items = [];
    for (const item of json.items)
      items.push(envelopeRaw((await get(`${list}/${item.metadata.name}`, protobuf)).bytes));
    expect(bytes.equals(encodeProtobufList("v1", "ConfigMapList", json.metadata, items))).toBe(true);
  });

  it("writes Tables and PartialObjectMetadataLists in compact JSON as the whole value", async () => {
    for (const accept of [
      "application/json;as=Table;v=v1;g=meta.k8s.io",
      "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
    ]) {
      const { bytes } = await get(list, accept);
      const value = JSON.parse(bytes.toString()) as { rows?: unknown[]; items?: unknown[] };
      expect((value.rows ?? value.items)?.length).toBe(count);
      expect(compactJson(value).equals(bytes)).toBe(true);
    }
    const table = JSON.parse(
      (await get(`${list}?includeObject=Object`, "application/json;as=Table;v=v1;g=meta.k8s.io")).bytes.toString(),
    );
    expect(table.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(["Name", "Data", "Age"]);
    expect(table.rows[3].object.metadata.name).toBe("cm-003");
  });
});
