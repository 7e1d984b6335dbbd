// Requests to a deprecated built-in kind get kube-apiserver's deprecation Warning (from the schema's lifecycle)
// and the `k8s.io/deprecated` / `k8s.io/removed-release` audit annotations; other kinds get neither. The
// Endpoints and ComponentStatus texts and which answers carry them (404, 422, watch, not 403) are
// kube-apiserver v1.36.2's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuditEvent, type InProcessServer, startServer } from "../../../runtime/index.js";
import { deprecationOf } from "../../../runtime/registry/deprecation.js";

const endpointsWarning = '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"';

describe("deprecationOf", () => {
  const kind = (lifecycle: Record<string, string>) => ({ group: "x.io", version: "v1beta1", kind: "Thing", lifecycle });
  it("words the warning as kube does, once the served release reaches the deprecated one", () => {
    expect(deprecationOf(kind({ deprecated: "1.36", removed: "1.39" }), "1.36")).toEqual({
      warning: "x.io/v1beta1 Thing is deprecated in v1.36+, unavailable in v1.39+",
      removedRelease: "1.39",
    });
    expect(deprecationOf(kind({ deprecated: "1.34", removed: "1.37", replacement: "x.io/v1 Thing" }), "1.36")).toEqual({
      warning: "x.io/v1beta1 Thing is deprecated in v1.34+, unavailable in v1.37+; use x.io/v1 Thing",
      removedRelease: "1.37",
    });
    expect(deprecationOf(kind({ deprecated: "1.37", removed: "1.40" }), "1.36")).toBeUndefined();
    expect(deprecationOf(kind({}), "1.36")).toBeUndefined();
  });
});

describe("a server's answers for deprecated kinds", () => {
  let server: InProcessServer;
  const audited: AuditEvent[] = [];
  beforeAll(async () => {
    server = await startServer({
      listen: false,
      controllers: false,
      audit: (event) => audited.push(event),
      runtimeConfig: { "resource.k8s.io/v1beta2": true },
    });
  });
  afterAll(() => server.close());

  const warning = async (request: Parameters<InProcessServer["request"]>[0]) => {
    const res = await server.request(request);
    // The audit event is written once the body is sent.
    await res.arrayBuffer();
    return { status: res.status, warning: res.headers.get("warning") };
  };

  it("warns on every request to v1 Endpoints, answered or failed", async () => {
    expect(await warning({ path: "/api/v1/namespaces/default/endpoints/nope" })).toEqual({
      status: 404,
      warning: endpointsWarning,
    });
    expect(await warning({ path: "/api/v1/endpoints" })).toEqual({ status: 200, warning: endpointsWarning });
    expect(
      await warning({
        method: "POST",
        path: "/api/v1/namespaces/default/endpoints",
        body: { metadata: { name: "E_bad" } },
      }),
    ).toEqual({ status: 422, warning: endpointsWarning });
    expect(
      await warning({ path: "/api/v1/namespaces/default/endpoints?watch=true&timeoutSeconds=1" }).then(
        (w) => w.warning,
      ),
    ).toBe(endpointsWarning);
  });

  it("warns for ComponentStatus without a replacement, and not for kinds that are not deprecated", async () => {
    expect(await warning({ path: "/api/v1/componentstatuses" })).toEqual({
      status: 200,
      warning: '299 - "v1 ComponentStatus is deprecated in v1.19+"',
    });
    expect(await warning({ path: "/api/v1/configmaps" })).toEqual({ status: 200, warning: null });
  });

  it("does not warn a request refused before its handler", async () => {
    const res = await server.request({
      path: "/api/v1/namespaces/default/endpoints",
      headers: { "Impersonate-User": "nobody" },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("warning")).toBeNull();
  });

  it("warns for a served beta version deprecated in this release, naming its removal", async () => {
    expect(await warning({ path: "/apis/resource.k8s.io/v1beta2/resourceclaims" })).toEqual({
      status: 200,
      warning: '299 - "resource.k8s.io/v1beta2 ResourceClaim is deprecated in v1.36+, unavailable in v1.39+"',
    });
  });

  it("annotates the audit events of deprecated requests", async () => {
    const annotations = (uri: string) =>
      audited.find((e) => e.requestURI === uri && e.stage === "ResponseComplete")?.annotations ?? {};
    expect(annotations("/api/v1/endpoints")).toMatchObject({ "k8s.io/deprecated": "true" });
    expect(annotations("/api/v1/endpoints")).not.toHaveProperty("k8s.io/removed-release");
    expect(annotations("/apis/resource.k8s.io/v1beta2/resourceclaims")).toMatchObject({
      "k8s.io/deprecated": "true",
      "k8s.io/removed-release": "1.39",
    });
    expect(annotations("/api/v1/configmaps")).not.toHaveProperty("k8s.io/deprecated");
  });
});
