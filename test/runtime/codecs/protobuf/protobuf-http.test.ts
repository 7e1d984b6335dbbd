// Protobuf responses over HTTP: get, list, create, delete and deletecollection, PartialObjectMetadata, the
// Table fallback and the watch stream, each read back with kapi's decoder (and WatchEvent frames with
// protobufjs) and compared with the JSON answer to the same request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { protoMessage } from "../../../../runtime/codecs/protobuf/proto-root.js";
import { decodeProtobufObject } from "../../../../runtime/codecs/protobuf/protobuf-body.js";
import { type RunningServer, startServer } from "../../../../runtime/index.js";

const token = "protobuf-token";
const pb = "application/vnd.kubernetes.protobuf";
const clientGo = `${pb},application/json`;
const configMaps = "/api/v1/namespaces/default/configmaps";

interface Answer {
  status: number;
  type: string;
  body: Buffer;
}

describe("protobuf responses over HTTP", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
  });
  afterAll(() => server.close());

  const call = async (method: string, path: string, accept: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept };
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(server.url + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: res.status,
      type: res.headers.get("content-type") ?? "",
      body: Buffer.from(await res.arrayBuffer()),
    };
  };
  const json = async (path: string) => JSON.parse((await call("GET", path, "application/json")).body.toString());
  const decoded = (answer: Answer) => {
    expect(answer.type).toBe(pb);
    return decodeProtobufObject(answer.body);
  };
  const withoutTypeMeta = ({ kind: _k, apiVersion: _a, ...rest }: Record<string, unknown>) => rest;

  it("creates from a JSON body and answers in protobuf: request and response formats are independent", async () => {
    const created = await call("POST", configMaps, clientGo, { metadata: { name: "one" }, data: { a: "1" } });
    expect(created.status).toBe(201);
    expect(decoded(created)).toEqual(await json(`${configMaps}/one`));
  });

  it("gets an object and lists objects as protobuf equal to their JSON", async () => {
    await call("POST", configMaps, "application/json", { metadata: { name: "two" }, binaryData: { b: "AAE=" } });
    expect(decoded(await call("GET", `${configMaps}/two`, clientGo))).toEqual(await json(`${configMaps}/two`));
    const list = await json(configMaps);
    const items = list.items as Record<string, unknown>[];
    expect(decoded(await call("GET", configMaps, clientGo))).toEqual({ ...list, items: items.map(withoutTypeMeta) });
  });

  it("answers PartialObjectMetadata and PartialObjectMetadataList in protobuf", async () => {
    const meta = (await json(`${configMaps}/one`)).metadata;
    const one = await call("GET", `${configMaps}/one`, `${pb};as=PartialObjectMetadata;g=meta.k8s.io;v=v1`);
    expect(decoded(one)).toEqual({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: meta });
    const list = decoded(await call("GET", configMaps, `${pb};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`));
    expect(list).toMatchObject({ kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1" });
    expect((list.items as unknown[]).length).toBe(2);
  });

  it("answers a Table asked with a protobuf clause first as JSON, and refuses a protobuf-only Table", async () => {
    const table = `${pb};as=Table;g=meta.k8s.io;v=v1,application/json;as=Table;g=meta.k8s.io;v=v1`;
    const answer = await call("GET", configMaps, table);
    expect(answer.type).toBe("application/json");
    expect(JSON.parse(answer.body.toString())).toMatchObject({ kind: "Table", apiVersion: "meta.k8s.io/v1" });
    expect((await call("GET", configMaps, `${pb};as=Table;g=meta.k8s.io;v=v1`)).status).toBe(406);
  });

  it("streams watch events as length-prefixed WatchEvent frames holding each object's protobuf body", async () => {
    const rv = (await json(configMaps)).metadata.resourceVersion as string;
    const controller = new AbortController();
    const res = await fetch(`${server.url}${configMaps}?watch=true&resourceVersion=${rv}`, {
      headers: { authorization: `Bearer ${token}`, accept: clientGo },
      signal: controller.signal,
    });
    expect(res.headers.get("content-type")).toBe(`${pb};stream=watch`);
    await call("POST", configMaps, "application/json", { metadata: { name: "three" } });
    await call("DELETE", `${configMaps}/three`, "application/json");
    const events: { type: string; object: Record<string, unknown> }[] = [];
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const watchEvent = protoMessage("k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent");
    let pending = Buffer.alloc(0);
    while (events.length < 2) {
      const { value, done } = await reader.read();
      if (done) break;
      pending = Buffer.concat([pending, value]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
        const length = pending.readUInt32BE(0);
        const event = watchEvent?.decode(pending.subarray(4, 4 + length)) as unknown as {
          type: string;
          object: { raw: Uint8Array };
        };
        events.push({ type: event.type, object: decodeProtobufObject(event.object.raw) });
        pending = pending.subarray(4 + length);
      }
    }
    controller.abort();
    expect(events.map((e) => e.type)).toEqual(["ADDED", "DELETED"]);
    expect(events[0]?.object).toMatchObject({ kind: "ConfigMap", apiVersion: "v1", metadata: { name: "three" } });
    const [added, deleted] = events.map((e) =>
      Number((e.object.metadata as { resourceVersion: string }).resourceVersion),
    );
    expect(deleted).toBeGreaterThan(added as number);
  });

  it("answers delete with a protobuf Status and deletecollection with a protobuf list", async () => {
    const status = decoded(await call("DELETE", `${configMaps}/one`, clientGo));
    expect(status).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Success", details: { name: "one" } });
    const list = decoded(await call("DELETE", configMaps, clientGo));
    expect(list).toMatchObject({ kind: "ConfigMapList", apiVersion: "v1" });
    expect((list.items as { metadata: { name: string } }[]).map((i) => i.metadata.name)).toContain("two");
  });
});
