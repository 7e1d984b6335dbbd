// The CustomResourceDefinition controller through a running server and raw HTTP: names accepted or refused
// for a conflict (and then not served), Established, discovery (also aggregated) and OpenAPI v2/v3 following
// definitions as they come and go, deletion through the cleanup finalizer (custom resources first, a custom
// resource's finalizer holding the definition in Terminating, creates refused meanwhile), storedVersions,
// and namespaced custom resources deleted with their namespace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { eventually } from "../controllers/controller-harness.js";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read by path in assertions
type Json = Record<string, any>;

interface Answer {
  status: number;
  body: Json;
}

const token = "crd-controller-token";
const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const aggregated = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

function definition(group: string, plural: string, kind: string, extra: Json = {}): Json {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural, singular: kind.toLowerCase(), kind, ...(extra.names ?? {}) },
      versions: extra.versions ?? [
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
}

function object(group: string, kind: string, name: string, extra: Json = {}): Json {
  return { apiVersion: `${group}/v1`, kind, metadata: { name, ...extra }, spec: { size: 1 } };
}

describe("CustomResourceDefinition controller", () => {
  let server: RunningServer;

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(server.url + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === "" ? {} : (JSON.parse(text) as Json) } satisfies Answer;
  }
  const get = (path: string, accept?: string) => call("GET", path, undefined, accept ? { accept } : {});
  const post = (path: string, body: unknown) => call("POST", path, body);
  const remove = (path: string) => call("DELETE", path);
  const mergePatch = (path: string, body: unknown) =>
    call("PATCH", path, body, { "content-type": "application/merge-patch+json" });

  const condition = (crd: Json, type: string) =>
    (crd.status?.conditions as Json[] | undefined)?.find((c) => c.type === type);

  /** Creates a definition and waits for it to be established. */
  async function establish(crd: Json): Promise<Json> {
    expect((await post(crds, crd)).status).toBe(201);
    return eventually(async () => {
      const { body } = await get(`${crds}/${crd.metadata.name}`);
      expect(condition(body, "Established")?.status).toBe("True");
      return body;
    });
  }

  async function gone(path: string): Promise<void> {
    await eventually(async () => expect((await get(path)).status).toBe(404), 10_000);
  }

  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: ["namespace-controller"] });
  });
  afterAll(() => server.close());

  it("accepts names and establishes a definition, then serves it", async () => {
    const crd = await establish(
      definition("accept.example.com", "gadgets", "Gadget", { names: { shortNames: ["gd"] } }),
    );
    expect(crd.status.acceptedNames).toEqual({
      plural: "gadgets",
      singular: "gadget",
      kind: "Gadget",
      listKind: "GadgetList",
      shortNames: ["gd"],
    });
    expect(condition(crd, "NamesAccepted")).toMatchObject({
      status: "True",
      reason: "NoConflicts",
      message: "no conflicts found",
    });
    expect(condition(crd, "Established")).toMatchObject({
      status: "True",
      reason: "InitialNamesAccepted",
      message: "the initial names have been accepted",
    });
    const created = await post(
      "/apis/accept.example.com/v1/namespaces/default/gadgets",
      object("accept.example.com", "Gadget", "g1"),
    );
    expect(created.status).toBe(201);
    expect((await get("/apis/accept.example.com/v1/namespaces/default/gadgets/g1")).body.spec).toEqual({ size: 1 });
  });

  it("answers custom resources in JSON only: protobuf is refused (406, 415) unless JSON is acceptable too", async () => {
    await establish(definition("wire.example.com", "spools", "Spool"));
    const items = "/apis/wire.example.com/v1/namespaces/default/spools";
    expect((await post(items, object("wire.example.com", "Spool", "s1"))).status).toBe(201);
    const protobuf = "application/vnd.kubernetes.protobuf";
    // The refusal itself is a Status, which has a protobuf form: it comes in the encoding asked for.
    const refused = await fetch(`${server.url}${items}/s1`, {
      headers: { authorization: `Bearer ${token}`, accept: protobuf },
    });
    expect(refused.status).toBe(406);
    expect(refused.headers.get("content-type")).toBe(protobuf);
    const fallback = await fetch(`${server.url}${items}/s1`, {
      headers: { authorization: `Bearer ${token}`, accept: `${protobuf}, application/json` },
    });
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get("content-type")).toBe("application/json");
    const sent = await fetch(server.url + items, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": protobuf },
      body: new Uint8Array([0x6b, 0x38, 0x73, 0x00]),
    });
    expect(sent.status).toBe(415);
    expect(await sent.json()).toMatchObject({ reason: "UnsupportedMediaType", code: 415 });
  });

  it("gives stored objects the defaults a changed schema adds, on read", async () => {
    await establish(definition("defaults.example.com", "nozzles", "Nozzle"));
    const items = "/apis/defaults.example.com/v1/namespaces/default/nozzles";
    expect((await post(items, object("defaults.example.com", "Nozzle", "n1"))).status).toBe(201);
    const versions = [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: { size: { type: "integer" }, shape: { type: "string", default: "round" } },
              },
            },
          },
        },
      },
    ];
    expect((await mergePatch(`${crds}/nozzles.defaults.example.com`, { spec: { versions } })).status).toBe(200);
    await eventually(async () => expect((await get(`${items}/n1`)).body.spec).toEqual({ size: 1, shape: "round" }));
    const listed = await get(items);
    expect(listed.body.items[0].spec).toEqual({ size: 1, shape: "round" });
  });

  it("refuses names another definition of the group holds, and serves nothing for them", async () => {
    await establish(definition("conflict.example.com", "foos", "Foo", { names: { shortNames: ["fo"] } }));
    // Only the kind conflicts: kube reports the last conflicting name it checks, so the list kind differs.
    const bar = definition("conflict.example.com", "bars", "Foo", { names: { listKind: "BarList" } });
    expect((await post(crds, bar)).status).toBe(201);
    const bars = await eventually(async () => {
      const { body } = await get(`${crds}/bars.conflict.example.com`);
      expect(condition(body, "NamesAccepted")?.status).toBe("False");
      return body;
    });
    expect(condition(bars, "NamesAccepted")).toMatchObject({
      reason: "KindConflict",
      message: '"Foo" is already in use',
    });
    expect(condition(bars, "Established")).toMatchObject({
      status: "False",
      reason: "NotAccepted",
      message: "not all names are accepted",
    });
    expect((await get("/apis/conflict.example.com/v1/namespaces/default/bars")).status).toBe(404);
    const resources = (await get("/apis/conflict.example.com/v1")).body.resources as Json[];
    expect(resources.map((r) => r.name)).toEqual(["foos"]);

    // A short name in use is a conflict too.
    const short = definition("conflict.example.com", "bazs", "Baz", { names: { shortNames: ["fo"] } });
    expect((await post(crds, short)).status).toBe(201);
    const bazs = await eventually(async () => {
      const { body } = await get(`${crds}/bazs.conflict.example.com`);
      expect(condition(body, "NamesAccepted")?.status).toBe("False");
      return body;
    });
    expect(condition(bazs, "NamesAccepted")).toMatchObject({
      reason: "ShortNamesConflict",
      message: '"fo" is already in use',
    });

    // Once the holder is gone, the waiting definition gets the names and is served.
    expect((await remove(`${crds}/foos.conflict.example.com`)).status).toBe(200);
    await eventually(async () => {
      const { body } = await get(`${crds}/bars.conflict.example.com`);
      expect(condition(body, "Established")?.status).toBe("True");
    }, 10_000);
    expect((await get("/apis/conflict.example.com/v1/namespaces/default/bars")).status).toBe(200);
  });

  it("keeps discovery and OpenAPI in step with definitions", async () => {
    const group = "live.example.com";
    await establish(definition(group, "sprockets", "Sprocket"));

    const groups = (await get("/apis")).body.groups as Json[];
    expect(groups.find((g) => g.name === group)).toEqual({
      name: group,
      versions: [{ groupVersion: `${group}/v1`, version: "v1" }],
      preferredVersion: { groupVersion: `${group}/v1`, version: "v1" },
    });
    const list = (await get(`/apis/${group}/v1`)).body;
    expect(list.resources).toEqual([
      {
        name: "sprockets",
        singularName: "sprocket",
        namespaced: true,
        kind: "Sprocket",
        verbs: ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
        storageVersionHash: expect.any(String),
      },
    ]);
    const discovery = await get("/apis", aggregated);
    expect(discovery.status).toBe(200);
    const entry = (discovery.body.items as Json[]).find((g) => g.metadata.name === group);
    expect(entry?.versions).toMatchObject([
      {
        version: "v1",
        resources: [
          {
            resource: "sprockets",
            singularResource: "sprocket",
            scope: "Namespaced",
            verbs: ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
          },
        ],
        freshness: "Current",
      },
    ]);

    const v2 = (await get("/openapi/v2")).body;
    expect(v2.definitions["com.example.live.v1.Sprocket"]).toMatchObject({
      type: "object",
      "x-kubernetes-group-version-kind": [{ group, version: "v1", kind: "Sprocket" }],
    });
    expect(Object.keys(v2.paths)).toContain(`/apis/${group}/v1/namespaces/{namespace}/sprockets/{name}`);
    const v3Paths = (await get("/openapi/v3")).body.paths as Json;
    expect(Object.keys(v3Paths)).toContain(`apis/${group}/v1`);
    const v3 = await get(`/openapi/v3/apis/${group}/v1`);
    expect(v3.status).toBe(200);
    expect(Object.keys(v3.body.components.schemas)).toEqual(
      expect.arrayContaining(["com.example.live.v1.Sprocket", "com.example.live.v1.SprocketList"]),
    );

    expect((await remove(`${crds}/sprockets.${group}`)).status).toBe(200);
    await gone(`${crds}/sprockets.${group}`);
    expect(((await get("/apis")).body.groups as Json[]).map((g) => g.name)).not.toContain(group);
    expect((await get(`/apis/${group}/v1`)).status).toBe(404);
    const after = (await get("/apis", aggregated)).body.items as Json[];
    expect(after.map((g) => g.metadata.name)).not.toContain(group);
    const v2After = (await get("/openapi/v2")).body;
    expect(Object.keys(v2After.definitions)).not.toContain("com.example.live.v1.Sprocket");
    expect(Object.keys(v2After.paths).filter((p) => p.includes(group))).toEqual([]);
    expect(Object.keys((await get("/openapi/v3")).body.paths)).not.toContain(`apis/${group}/v1`);
    expect((await get(`/openapi/v3/apis/${group}/v1`)).status).toBe(404);
  });

  it("names the custom kind's group and version in aggregated discovery", async () => {
    const group = "kinds.example.com";
    const crd = definition(group, "pulleys", "Pulley");
    crd.spec.versions[0].subresources = {
      status: {},
      scale: { specReplicasPath: ".spec.size", statusReplicasPath: ".status.size" },
    };
    await establish(crd);
    const items = (await get("/apis", aggregated)).body.items as Json[];
    const resource = items.find((g) => g.metadata.name === group)?.versions[0].resources[0];
    expect(resource.responseKind).toEqual({ group, version: "v1", kind: "Pulley" });
    expect(resource.subresources).toEqual([
      {
        subresource: "scale",
        responseKind: { group: "autoscaling", version: "v1", kind: "Scale" },
        verbs: ["get", "patch", "update"],
      },
      {
        subresource: "status",
        responseKind: { group, version: "v1", kind: "Pulley" },
        verbs: ["get", "patch", "update"],
      },
    ]);
  });

  it("publishes a root that keeps unknown fields as a bare object in OpenAPI v2", async () => {
    const open = definition("open.example.com", "blobs", "Blob", {
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
        },
      ],
    });
    await establish(open);
    const v2 = (await get("/openapi/v2")).body;
    expect(v2.definitions["com.example.open.v1.Blob"]).toEqual({
      type: "object",
      "x-kubernetes-group-version-kind": [{ group: "open.example.com", version: "v1", kind: "Blob" }],
    });
  });

  it("deletes the custom resources before the definition", async () => {
    const group = "cleanup.example.com";
    const path = `/apis/${group}/v1/namespaces/default/cogs`;
    await establish(definition(group, "cogs", "Cog"));
    for (const name of ["a", "b"]) expect((await post(path, object(group, "Cog", name))).status).toBe(201);

    const deleted = await remove(`${crds}/cogs.${group}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.metadata.finalizers).toEqual(["customresourcecleanup.apiextensions.k8s.io"]);
    expect(deleted.body.metadata.deletionTimestamp).toEqual(expect.any(String));
    await gone(`${crds}/cogs.${group}`);
    expect((await get(path)).status).toBe(404);

    // Defined again, nothing of the old objects is left.
    await establish(definition(group, "cogs", "Cog"));
    expect((await get(path)).body.items).toEqual([]);
  });

  it("holds a definition in Terminating while a custom resource's finalizer stays, refusing creates", async () => {
    const group = "held.example.com";
    const path = `/apis/${group}/v1/namespaces/default/locks`;
    const crd = definition(group, "locks", "Lock");
    crd.metadata.finalizers = ["example.com/keep"];
    await establish(crd);
    expect((await post(path, object(group, "Lock", "held", { finalizers: ["example.com/hold"] }))).status).toBe(201);

    expect((await remove(`${crds}/locks.${group}`)).status).toBe(200);
    const terminating = await eventually(async () => {
      const { body } = await get(`${crds}/locks.${group}`);
      expect(condition(body, "Terminating")?.reason).toBe("InstanceDeletionInProgress");
      return body;
    });
    expect(condition(terminating, "Terminating")).toMatchObject({
      status: "True",
      message: "CustomResource deletion is in progress",
    });
    // The condition is written before the instances are deleted, as kube's finalizer writes it.
    await eventually(async () => {
      const held = await get(`${path}/held`);
      expect(held.status).toBe(200);
      expect(held.body.metadata.deletionTimestamp).toEqual(expect.any(String));
    });

    const refused = await post(path, object(group, "Lock", "late"));
    expect(refused).toEqual({
      status: 405,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: "create not allowed while custom resource definition is terminating",
        reason: "MethodNotAllowed",
        details: { group, kind: "locks" },
        code: 405,
      },
    });

    // The last finalizer goes, so does the object, and the cleanup finishes as kube reports it.
    expect((await mergePatch(`${path}/held`, { metadata: { finalizers: null } })).status).toBe(200);
    const finished = await eventually(async () => {
      const { body } = await get(`${crds}/locks.${group}`);
      expect(body.metadata.finalizers).toEqual(["example.com/keep"]);
      return body;
    });
    expect(condition(finished, "Terminating")).toMatchObject({
      status: "False",
      reason: "InstanceDeletionCompleted",
      message: "removed all instances",
    });
    expect((await mergePatch(`${crds}/locks.${group}`, { metadata: { finalizers: null } })).status).toBe(200);
    await gone(`${crds}/locks.${group}`);
  });

  it("records every storage version in status.storedVersions", async () => {
    const group = "stored.example.com";
    const schema = { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } };
    const crd = definition(group, "gears", "Gear", {
      versions: [
        { name: "v1", served: true, storage: true, schema },
        { name: "v2", served: true, storage: false, schema },
      ],
    });
    const created = await establish(crd);
    expect(created.status.storedVersions).toEqual(["v1"]);
    const hashOf = async () => ((await get(`/apis/${group}/v1`)).body.resources as Json[])[0]?.storageVersionHash;
    const before = await hashOf();
    const versions = created.spec.versions as Json[];
    const swapped = {
      ...created,
      spec: { ...created.spec, versions: versions.map((v) => ({ ...v, storage: v.name === "v2" })) },
    };
    const updated = await call("PUT", `${crds}/gears.${group}`, swapped);
    expect(updated.status).toBe(200);
    expect(updated.body.status.storedVersions).toEqual(["v1", "v2"]);
    // Discovery follows the new storage version.
    await eventually(async () => expect(await hashOf()).not.toBe(before));
  });

  it("deletes namespaced custom resources with their namespace", async () => {
    const group = "spaced.example.com";
    await establish(definition(group, "nuts", "Nut"));
    expect((await post("/api/v1/namespaces", { metadata: { name: "nuts-ns" } })).status).toBe(201);
    const path = `/apis/${group}/v1/namespaces/nuts-ns/nuts`;
    expect((await post(path, object(group, "Nut", "n1"))).status).toBe(201);
    expect((await remove("/api/v1/namespaces/nuts-ns")).status).toBe(200);
    await gone("/api/v1/namespaces/nuts-ns");
    expect((await get(`/apis/${group}/v1/nuts`)).body.items).toEqual([]);
  });
});
