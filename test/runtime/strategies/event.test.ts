// core/v1 and events.k8s.io/v1 Events share one store, as in kube-apiserver: an event written through either API
// is read, listed, watched and selected through the other, converted as kube converts it; writes get kube's
// legacy (core/v1) or strict (events.k8s.io/v1) validation. Expected bodies and error texts are kube-apiserver
// v1.36.2's answers to the same requests (uids, times and resourceVersions left out).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer, watchEvents } from "../../../runtime/index.js";

const ns = "e-ns1";
const core = `/api/v1/namespaces/${ns}/events`;
const events = `/apis/events.k8s.io/v1/namespaces/${ns}/events`;

const strictEvent = {
  apiVersion: "events.k8s.io/v1",
  kind: "Event",
  metadata: { name: "e-ev1", namespace: ns },
  eventTime: "2026-01-02T03:04:05.123456Z",
  reportingController: "example.com/ctl",
  reportingInstance: "inst-1",
  action: "Create",
  reason: "Made",
  note: "hello",
  type: "Normal",
  regarding: { kind: "Pod", name: "p1", namespace: ns, apiVersion: "v1", fieldPath: "spec" },
  related: { kind: "Node", name: "n1" },
  series: { count: 2, lastObservedTime: "2026-01-02T03:04:06.000001Z" },
};

const legacyEvent = {
  apiVersion: "v1",
  kind: "Event",
  metadata: { name: "e-ev2", namespace: ns },
  involvedObject: { kind: "Pod", name: "p1", namespace: ns },
  reason: "Old",
  message: "legacy",
  source: { component: "kubelet", host: "node1" },
  firstTimestamp: "2026-01-02T03:04:05Z",
  lastTimestamp: "2026-01-02T03:04:07Z",
  count: 3,
  type: "Warning",
};

type Json = Record<string, unknown>;

/** The body without the server-set metadata the reference's answers were normalized from. */
function withoutServerMeta(obj: Json): Json {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...meta } = obj.metadata as Json;
  return { ...obj, metadata: meta };
}

describe("one Event store for core/v1 and events.k8s.io/v1", () => {
  let server: InProcessServer;
  const json = async (path: string) => (await (await server.request({ path })).json()) as Json;
  const causes = async (res: Response) =>
    ((await res.json()) as { details: { causes: { field: string; message: string }[] } }).details.causes.map(
      (c) => `${c.field}: ${c.message}`,
    );
  beforeAll(async () => {
    server = await startServer({ listen: false });
    await server.request({
      method: "POST",
      path: "/api/v1/namespaces",
      body: { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } },
    });
  });
  afterAll(() => server.close());

  it("reads an events.k8s.io/v1 event through core/v1", async () => {
    const created = await server.request({ method: "POST", path: events, body: strictEvent });
    expect(created.status).toBe(201);
    expect(withoutServerMeta((await created.json()) as Json)).toEqual({
      ...strictEvent,
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
      deprecatedSource: {},
    });
    expect(withoutServerMeta(await json(`${core}/e-ev1`))).toEqual({
      kind: "Event",
      apiVersion: "v1",
      metadata: { name: "e-ev1", namespace: ns },
      involvedObject: { kind: "Pod", namespace: ns, name: "p1", apiVersion: "v1", fieldPath: "spec" },
      reason: "Made",
      message: "hello",
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: "Normal",
      eventTime: "2026-01-02T03:04:05.123456Z",
      series: { count: 2, lastObservedTime: "2026-01-02T03:04:06.000001Z" },
      action: "Create",
      related: { kind: "Node", name: "n1" },
      reportingComponent: "example.com/ctl",
      reportingInstance: "inst-1",
    });
  });

  it("reads a core/v1 event through events.k8s.io/v1", async () => {
    expect((await server.request({ method: "POST", path: core, body: legacyEvent })).status).toBe(201);
    expect(withoutServerMeta(await json(`${events}/e-ev2`))).toEqual({
      kind: "Event",
      apiVersion: "events.k8s.io/v1",
      metadata: { name: "e-ev2", namespace: ns },
      eventTime: null,
      reason: "Old",
      regarding: { kind: "Pod", namespace: ns, name: "p1" },
      note: "legacy",
      type: "Warning",
      deprecatedSource: { component: "kubelet", host: "node1" },
      deprecatedFirstTimestamp: "2026-01-02T03:04:05Z",
      deprecatedLastTimestamp: "2026-01-02T03:04:07Z",
      deprecatedCount: 3,
    });
  });

  it("lists both events through either API, selected by each API's field labels", async () => {
    const names = async (path: string) =>
      ((await json(path)).items as Json[]).map((item) => (item.metadata as Json).name);
    expect(await names(core)).toEqual(["e-ev1", "e-ev2"]);
    expect(await names(events)).toEqual(["e-ev1", "e-ev2"]);
    expect(await names(`${events}?fieldSelector=reportingController%3Dexample.com%2Fctl`)).toEqual(["e-ev1"]);
    expect(await names(`${events}?fieldSelector=regarding.name%3Dp1,type%3DWarning`)).toEqual(["e-ev2"]);
    expect(await names(`${core}?fieldSelector=reportingComponent%3Dexample.com%2Fctl`)).toEqual(["e-ev1"]);
    expect(await names(`${core}?fieldSelector=source%3Dkubelet`)).toEqual(["e-ev2"]);
    expect(await names(`${core}?fieldSelector=source%3Dexample.com%2Fctl`)).toEqual(["e-ev1"]);
    for (const [path, label] of [
      [`${events}?fieldSelector=source%3Dx`, "source"],
      [`${events}?fieldSelector=reportingComponent%3Dx`, "reportingComponent"],
      [`${core}?fieldSelector=regarding.name%3Dx`, "regarding.name"],
    ] as const) {
      const res = await server.request({ path });
      expect(res.status).toBe(400);
      expect(((await res.json()) as Json).message).toBe(`field label not supported: ${label}`);
    }
  });

  it("watches through one API the writes through the other, in the watcher's version", async () => {
    const res = await server.request({ path: `${events}?watch=true&resourceVersion=0` });
    const seen: Json[] = [];
    const watching = (async () => {
      for await (const event of watchEvents(res)) {
        seen.push(event.object);
        if ((event.object.metadata as Json).name === "e-ev3") return;
      }
    })();
    const body = { ...legacyEvent, metadata: { name: "e-ev3", namespace: ns } };
    expect((await server.request({ method: "POST", path: core, body })).status).toBe(201);
    await watching;
    expect(seen.map((o) => [o.apiVersion, (o.metadata as Json).name, o.note])).toEqual([
      ["events.k8s.io/v1", "e-ev1", "hello"],
      ["events.k8s.io/v1", "e-ev2", "legacy"],
      ["events.k8s.io/v1", "e-ev3", "legacy"],
    ]);
  });

  it("deletes through one API what the other wrote", async () => {
    expect((await server.request({ method: "DELETE", path: `${events}/e-ev3` })).status).toBe(200);
    expect((await server.request({ path: `${core}/e-ev3` })).status).toBe(404);
  });

  it("validates events.k8s.io/v1 creates strictly", async () => {
    const bad1 = await server.request({
      method: "POST",
      path: events,
      body: {
        apiVersion: "events.k8s.io/v1",
        kind: "Event",
        metadata: { name: "e-bad1" },
        eventTime: null,
        deprecatedSource: { component: "x" },
        deprecatedCount: 2,
        deprecatedFirstTimestamp: "2026-01-02T03:04:05Z",
        reportingController: "bad name!",
        series: { count: 1 },
        type: "Odd",
        note: "hi",
      },
    });
    expect(bad1.status).toBe(422);
    expect(await causes(bad1)).toEqual([
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
      'series.count: Invalid value: "": should be at least 2',
      "series.lastObservedTime: Required value",
      "eventTime: Required value",
      'type: Invalid value: "": has invalid value: Odd',
      'firstTimestamp: Invalid value: "": needs to be unset',
      'count: Invalid value: "": needs to be unset',
      'source: Invalid value: "": needs to be unset',
    ]);
    const bad2 = await server.request({
      method: "POST",
      path: events,
      body: {
        apiVersion: "events.k8s.io/v1",
        kind: "Event",
        metadata: { name: "e-bad2" },
        eventTime: "2026-01-02T03:04:05.000000Z",
        type: "Normal",
      },
    });
    expect(await causes(bad2)).toEqual([
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
      "reportingController: Required value",
      'reportingController: Invalid value: "": name part must be non-empty',
      "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "reportingInstance: Required value",
      "action: Required value",
      "reason: Required value",
    ]);
  });

  it("keeps the legacy rules for core/v1 creates, naming reportingComponent", async () => {
    const bad3 = await server.request({
      method: "POST",
      path: core,
      body: {
        apiVersion: "v1",
        kind: "Event",
        metadata: { name: "e-bad3" },
        eventTime: "2026-01-02T03:04:05.000000Z",
        involvedObject: { namespace: "other" },
      },
    });
    expect(bad3.status).toBe(422);
    expect(await causes(bad3)).toEqual([
      "reportingComponent: Required value",
      'reportingComponent: Invalid value: "": name part must be non-empty',
      "reportingComponent: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "reportingInstance: Required value",
      "action: Required value",
      "reason: Required value",
    ]);
  });

  it("refuses events.k8s.io/v1 updates of immutable fields", async () => {
    const current = await json(`${events}/e-ev1`);
    const res = await server.request({
      method: "PUT",
      path: `${events}/e-ev1`,
      body: {
        ...current,
        note: "changed",
        reason: "R2",
        series: { count: 1 },
        regarding: { ...(current.regarding as Json), name: "zz" },
        action: "A2",
      },
    });
    expect(res.status).toBe(422);
    expect(await causes(res)).toEqual([
      'series.count: Invalid value: "": should be at least 2',
      "series.lastObservedTime: Required value",
      'involvedObject: Invalid value: {"Kind":"Pod","Namespace":"e-ns1","Name":"zz","UID":"","APIVersion":"v1","ResourceVersion":"","FieldPath":"spec"}: field is immutable',
      'reason: Invalid value: "R2": field is immutable',
      'message: Invalid value: "changed": field is immutable',
      'action: Invalid value: "A2": field is immutable',
    ]);
  });
});
