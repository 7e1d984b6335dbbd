// Deep and hostile documents through a running server and raw HTTP: bodies nested past kube's limits are
// refused as kube-apiserver v1.36.2 refuses them (every expected message below was checked against it), by
// any authenticated user; objects nested as deep as kapi stores anything are answered in every format.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeProtobuf } from "../../../runtime/codecs/protobuf/protobuf-response.js";
import { parseYaml } from "../../../runtime/codecs/yaml-body.js";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { eventually } from "../controllers/controller-harness.js";
import { openSpecDefinition } from "../crd/open-spec-definition.js";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read by path in assertions
type Json = Record<string, any>;

const adminToken = "deep-documents-admin";
/** A user the token file knows and RBAC grants nothing beyond what every authenticated user may do. */
const nobodyToken = "deep-documents-nobody";
const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const deeps = "/apis/deep.example.com/v1/namespaces/deep/deeps";
const protobuf = "application/vnd.kubernetes.protobuf";

const definition = openSpecDefinition("deep.example.com", "deeps", "Deep");

/** `{"a":{"a":…{}…}}`, `levels` objects deep. */
function nestedJson(levels: number): string {
  return `${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;
}

/** A custom resource whose JSON nests `depth` containers deep, the top object counting as one. */
function deepResource(name: string, depth: number): string {
  return `{"apiVersion":"deep.example.com/v1","kind":"Deep","metadata":{"name":"${name}"},"spec":${nestedJson(depth - 1)}}`;
}

/** A CRD whose spec schema nests `levels` object properties, each two JSON levels below the last. */
function deepDefinition(levels: number, plural = "schemas"): Json {
  let schema: Json = { type: "string" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema } };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.deep.example.com` },
    spec: {
      group: "deep.example.com",
      scope: "Namespaced",
      names: { plural, singular: plural.slice(0, -1), kind: `K${plural}`, listKind: `K${plural}List` },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", properties: { spec: schema } } },
        },
      ],
    },
  };
}

describe("deep and hostile documents", () => {
  let server: RunningServer;
  let dir: string;

  async function call(
    method: string,
    path: string,
    body?: string | Buffer,
    headers: Record<string, string> = {},
    token = adminToken,
  ) {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(body === undefined ? {} : { body }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, bytes, headers: res.headers };
  }

  async function json(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}) {
    const res = await call(method, path, body, { "content-type": "application/json", ...headers });
    return { ...res, body: JSON.parse(res.bytes.toString()) as Json };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kapi-deep-"));
    const tokenAuthFile = join(dir, "tokens.csv");
    writeFileSync(tokenAuthFile, `${nobodyToken},nobody,nobody-uid\n`);
    server = await startServer({ insecure: true, adminToken, controllers: false, authentication: { tokenAuthFile } });
    expect((await json("POST", crds, JSON.stringify(definition))).status).toBe(201);
    expect((await json("POST", "/api/v1/namespaces", JSON.stringify({ metadata: { name: "deep" } }))).status).toBe(201);
    await eventually(async () => expect((await call("GET", deeps)).status).toBe(200));
  });

  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses the 3 MiB YAML body nested 500,000 deep from a user with no permissions, and goes on serving", async () => {
    const body = '{"a":'.repeat(500000);
    const res = await call(
      "POST",
      "/apis/authentication.k8s.io/v1/selfsubjectreviews",
      body,
      { "content-type": "application/yaml" },
      nobodyToken,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.bytes.toString()).message).toBe(
      'the object provided is unrecognized (must be of type SelfSubjectReview): yaml: exceeded max depth of 10000 ({"a":{"a":{"a":{"a":{"a":{"a": ...)',
    );
    expect((await call("GET", "/version")).status).toBe(200);
  });

  it("refuses YAML that nests past encoding/json's limit once converted, as kube's JSON reader words it", async () => {
    const yaml = `a:\n${"  - ".repeat(5000)}${'{"a":'.repeat(5001)}1${"}".repeat(5001)}\n`;
    const res = await call("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", yaml, {
      "content-type": "application/yaml",
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.bytes.toString()).message).toBe(
      "the object provided is unrecognized (must be of type SelfSubjectReview): couldn't get version/kind; json parse error: invalid character '{' exceeded max depth (613a0a20202d2020202d2020202d2020202d2020202d2020202d2020202d ...)",
    );
  });

  it("refuses JSON nested past 10,000 as kube does, for built-in kinds and custom resources", async () => {
    const configMap = (depth: number) =>
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"x":${nestedJson(depth - 1)}}`;
    const tooDeep = await json("POST", "/api/v1/namespaces/deep/configmaps?dryRun=All", configMap(10001));
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.message).toBe(
      `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '{' exceeded max depth ({"apiVersion":"v1","kind":"Con ...)`,
    );
    const resource = await json("POST", deeps, deepResource("d", 10001));
    expect(resource.status).toBe(400);
    expect(resource.body.message).toBe(
      `the object provided is unrecognized (must be of type Deep): couldn't get version/kind; json parse error: invalid character '{' exceeded max depth ({"apiVersion":"deep.example.co ...)`,
    );
    // 9,999 deep is read; the deep field is unknown to a ConfigMap, which strict validation refuses.
    const strict = await json(
      "POST",
      "/api/v1/namespaces/deep/configmaps?dryRun=All&fieldValidation=Strict",
      configMap(9999),
    );
    expect(strict.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "x"',
    );
    const warned = await json("POST", "/api/v1/namespaces/deep/configmaps?dryRun=All", configMap(9999));
    expect(warned.status).toBe(201);
    expect(warned.headers.get("warning")).toBe('299 - "unknown field \\"x\\""');
  });

  it("serves a custom resource nested nearly as deep as kapi stores anything in every format", async () => {
    const created = await json("POST", deeps, deepResource("near", 990));
    expect(created.status).toBe(201);
    const accepts = [
      "application/json",
      "application/yaml",
      "application/json;as=Table;v=v1;g=meta.k8s.io",
      "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
    ];
    for (const accept of accepts) expect((await call("GET", `${deeps}/near`, undefined, { accept })).status).toBe(200);
    for (const accept of [...accepts.slice(0, 3), "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io"]) {
      expect((await call("GET", deeps, undefined, { accept })).status).toBe(200);
    }
    // Custom resources have no protobuf form: kube answers 406 for them too.
    expect((await call("GET", `${deeps}/near`, undefined, { accept: protobuf })).status).toBe(406);
    const asJson = JSON.parse((await call("GET", `${deeps}/near`)).bytes.toString());
    const asYaml = parseYaml((await call("GET", `${deeps}/near`, undefined, { accept: "application/yaml" })).bytes);
    expect(asYaml).toMatchObject({ value: asJson });
  });

  it("accepts the resource written as block-style YAML, and answers it as it was sent", async () => {
    const depth = 900;
    let spec = "";
    for (let i = 0; i < depth; i++) spec += `${"  ".repeat(i + 1)}a:\n`;
    const yaml = `apiVersion: deep.example.com/v1\nkind: Deep\nmetadata:\n  name: block\nspec:\n${spec}${"  ".repeat(depth + 1)}leaf: x\n`;
    const created = await call("POST", deeps, yaml, { "content-type": "application/yaml" });
    expect(created.status).toBe(201);
    let value = JSON.parse(created.bytes.toString()).spec;
    for (let i = 0; i < depth; i++) value = value.a;
    expect(value).toEqual({ leaf: "x" });
  });

  it("refuses a protobuf CRD whose schema nests deeper than kube can store, without failing", async () => {
    const body = encodeProtobuf(deepDefinition(6000));
    const res = await call("POST", `${crds}?dryRun=All`, body, { "content-type": protobuf });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.bytes.toString()).message).toContain(
      "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth",
    );
  });

  it("takes and serves a CRD whose schema nests 450 levels as JSON, YAML and protobuf", async () => {
    expect((await json("POST", crds, JSON.stringify(deepDefinition(450)))).status).toBe(201);
    const sent = await call("POST", crds, encodeProtobuf(deepDefinition(450, "protos")), { "content-type": protobuf });
    expect(sent.status).toBe(201);
    for (const accept of ["application/json", "application/yaml", protobuf]) {
      expect((await call("GET", `${crds}/schemas.deep.example.com`, undefined, { accept })).status).toBe(200);
      expect((await call("GET", crds, undefined, { accept })).status).toBe(200);
    }
  });
});
