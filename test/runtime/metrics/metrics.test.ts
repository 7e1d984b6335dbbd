// /metrics after a scripted workload, compared with what kube-apiserver v1.36.2 reported for the same requests
// (label sets and help texts recorded from the reference), and the metric registry's stability rules.
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseServeFlags } from "../../../runtime/cli/serve-flags.js";
import { MetricRegistry } from "../../../runtime/metrics/metric-registry.js";
import { type InProcessServer, startServer } from "../../../runtime/server/start-server.js";

const ns = "/api/v1/namespaces/default/configmaps";

function line(text: string, name: string, labels: Record<string, string>): string | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  return text
    .split("\n")
    .find(
      (l) =>
        l.startsWith(`${name}{`) &&
        wanted.every((w) => l.includes(w)) &&
        (l.match(/="/g) ?? []).length === wanted.length,
    );
}

function value(text: string, name: string, labels: Record<string, string>): number | undefined {
  const found = line(text, name, labels);
  return found === undefined ? undefined : Number(found.slice(found.lastIndexOf(" ") + 1));
}

const requestLabels = (verb: string, code: string, scope: string, dryRun = "") => ({
  code,
  component: "apiserver",
  dry_run: dryRun,
  group: "",
  resource: "configmaps",
  scope,
  subresource: "",
  verb,
  version: "v1",
});

describe("the metric registry", () => {
  it("prints the stability level, and the deprecation after it, in the help", async () => {
    const registry = new MetricRegistry();
    registry.counter({ name: "a_total", help: "A.", stabilityLevel: "STABLE" }).inc();
    registry.gauge({ name: "b", help: "B.", stabilityLevel: "STABLE", deprecatedVersion: "1.34.0" }).set(1);
    const text = await registry.text();
    expect(text).toContain("# HELP a_total [STABLE] A.\n");
    expect(text).toContain("# HELP b [STABLE] (Deprecated since 1.34.0) B.\n");
  });

  it("hides a family deprecated long enough for its level, unless asked for the previous release", async () => {
    const families = (r: MetricRegistry) => {
      r.counter({ name: "alpha_now_total", help: "x", stabilityLevel: "ALPHA", deprecatedVersion: "1.36.0" }).inc();
      r.counter({ name: "beta_old_total", help: "x", stabilityLevel: "BETA", deprecatedVersion: "1.35.0" }).inc();
      r.counter({ name: "stable_shown_total", help: "x", stabilityLevel: "STABLE", deprecatedVersion: "1.34.0" }).inc();
      r.counter({ name: "alpha_future_total", help: "x", stabilityLevel: "ALPHA", deprecatedVersion: "1.37.0" }).inc();
      return r;
    };
    const plain = families(new MetricRegistry());
    expect([plain.has("alpha_now_total"), plain.has("beta_old_total")]).toEqual([false, false]);
    expect([plain.has("stable_shown_total"), plain.has("alpha_future_total")]).toEqual([true, true]);
    expect(await plain.text()).toContain("hidden_metrics_total 2\n");
    expect(await plain.text()).toContain("# HELP alpha_future_total [ALPHA] x\n");
    const shown = families(new MetricRegistry({ showHiddenMetricsForVersion: "1.35" }));
    expect([shown.has("alpha_now_total"), shown.has("beta_old_total")]).toEqual([true, true]);
  });

  it("accepts only the previous minor release, with kube-apiserver's message", () => {
    expect(() => new MetricRegistry({ showHiddenMetricsForVersion: "1.2" })).toThrow(
      `metrics.showHiddenMetricsForVersion: Invalid value: "1.2": must be omitted or have the value '1.35'; only the previous minor version is allowed`,
    );
  });
});

describe("/metrics", () => {
  let server: InProcessServer;
  let text: string;

  beforeAll(async () => {
    server = await startServer({ listen: false, controllers: false });
    const cm = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name } });
    await server.request({ method: "POST", path: ns, body: cm("a-1") });
    await server.request({ method: "POST", path: `${ns}?dryRun=All`, body: cm("a-2") });
    await server.request({ path: `${ns}/a-1` });
    await (await server.request({ path: `${ns}?watch=true&resourceVersion=0&timeoutSeconds=1` })).text();
    await server.request({ path: `${ns}?fieldSelector=metadata.name%3Da-1` });
    await server.request({ path: "/api/v1/configmaps", headers: { authorization: "Bearer not-a-token" } });
    await server.request({ path: `${ns}/missing` });
    await server.request({ path: ns });
    await server.request({ path: "/api/v1/configmaps" });
    await server.request({
      method: "PATCH",
      path: `${ns}/a-1?fieldManager=a`,
      headers: { "content-type": "application/apply-patch+yaml" },
      body: JSON.stringify(cm("a-1")),
    });
    await server.request({
      method: "PATCH",
      path: `${ns}/a-1`,
      headers: { "content-type": "application/merge-patch+json" },
      body: JSON.stringify({ data: { k: "v" } }),
    });
    await server.request({ method: "DELETE", path: `${ns}/a-1` });
    await server.request({ path: "/api/v1/namespaces/default/nopes" });
    await server.request({ path: "/api/v1/namespaces/default/endpoints" });
    await server.request({ path: "/livez" });
    await server.request({ path: "/version" });
    await server.request({ path: ns, anonymous: true });
    const scrape = await server.request({ path: "/metrics" });
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8; escaping=underscores");
    text = await scrape.text();
  });
  afterAll(() => server?.close());

  it("counts each answered resource request with kube's verb, scope, dry-run and code labels", () => {
    expect(value(text, "apiserver_request_total", requestLabels("POST", "201", "resource"))).toBe(1);
    expect(value(text, "apiserver_request_total", requestLabels("POST", "201", "resource", "All"))).toBe(1);
    expect(value(text, "apiserver_request_total", requestLabels("GET", "200", "resource"))).toBe(1);
    expect(value(text, "apiserver_request_total", requestLabels("GET", "404", "resource"))).toBe(1);
    expect(value(text, "apiserver_request_total", requestLabels("LIST", "200", "cluster"))).toBe(1);
    // kubectl get NAME --watch lists by field selector: kube counts it with its collection's scope.
    expect(value(text, "apiserver_request_total", requestLabels("LIST", "200", "namespace"))).toBe(2);
    expect(value(text, "apiserver_request_total", requestLabels("APPLY", "200", "resource"))).toBe(1);
    expect(value(text, "apiserver_request_total", requestLabels("PATCH", "200", "resource"))).toBe(1);
    expect(value(text, "apiserver_request_total", requestLabels("DELETE", "200", "resource"))).toBe(1);
  });

  it("counts watches, their events, and authentication and authorization attempts", () => {
    expect(value(text, "apiserver_request_total", requestLabels("WATCH", "200", "namespace"))).toBe(1);
    expect(value(text, "apiserver_watch_events_total", { group: "", resource: "configmaps", version: "v1" })).toBe(1);
    expect(value(text, "authentication_attempts", { result: "error" })).toBe(1);
    expect(value(text, "authorization_attempts_total", { result: "no-opinion" })).toBe(1);
    expect(value(text, "authenticated_user_requests", { username: "other" })).toBeGreaterThan(0);
  });

  it("leaves out unknown resources, unauthorized requests and uninstrumented paths, as kube does", () => {
    expect(text).not.toContain('resource="nopes"');
    expect(line(text, "apiserver_request_total", { ...requestLabels("LIST", "403", "namespace") })).toBeUndefined();
    expect(text).not.toContain('subresource="/version"');
    expect(
      value(text, "apiserver_request_total", {
        code: "200",
        component: "",
        dry_run: "",
        group: "",
        resource: "",
        scope: "",
        subresource: "/livez",
        verb: "GET",
        version: "",
      }),
    ).toBe(1);
  });

  it("marks a deprecated API as requested", () => {
    expect(
      value(text, "apiserver_requested_deprecated_apis", {
        group: "",
        removed_release: "",
        resource: "endpoints",
        subresource: "",
        version: "v1",
      }),
    ).toBe(1);
  });

  it("has kube's help texts, buckets and the other families", () => {
    expect(text).toContain(
      "# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.\n# TYPE apiserver_request_total counter\n",
    );
    expect(text).toContain(
      "# HELP apiserver_storage_objects [STABLE] (Deprecated since 1.34.0) [DEPRECATED, consider using apiserver_resource_objects instead] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.\n",
    );
    expect(
      line(text, "apiserver_request_duration_seconds_bucket", { ...requestLabels("GET", "", "resource"), le: "0.005" }),
    );
    // a-1 is gone; kube-system/extension-apiserver-authentication, the server's own, remains (and was the
    // other create).
    expect(value(text, "apiserver_resource_objects", { group: "", resource: "configmaps" })).toBe(1);
    expect(value(text, "etcd_requests_total", { group: "", operation: "create", resource: "configmaps" })).toBe(2);
    expect(text).toMatch(/^kubernetes_build_info\{.*git_version="v1\.36\.2-kapi".*\} 1$/m);
    for (const family of ["process_cpu_seconds_total", "process_resident_memory_bytes", "process_start_time_seconds"])
      expect(text).toContain(`# TYPE ${family} `);
    // The SLO family is deprecated since 1.27 (ALPHA): hidden in 1.36.
    expect(text).not.toContain("apiserver_request_slo_duration_seconds");
    expect(text).toContain("apiserver_request_sli_duration_seconds_bucket");
  });

  it("compresses when asked, and answers an anonymous scrape with kube's 403", async () => {
    const gz = await server.request({ path: "/metrics", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toContain(
      "# TYPE apiserver_request_total counter",
    );
    const anonymous = await server.request({ path: "/metrics", anonymous: true });
    expect(anonymous.status).toBe(403);
    expect(((await anonymous.json()) as { message: string }).message).toBe(
      'forbidden: User "system:anonymous" cannot get path "/metrics"',
    );
  });

  it("lets a user bound to system:monitoring scrape, and not a plain user", async () => {
    await server.request({
      method: "POST",
      path: "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
      body: {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name: "a-monitoring" },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:monitoring" },
        subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "a-prometheus" }],
      },
    });
    await expect
      .poll(async () => (await server.request({ path: "/metrics", user: { name: "a-prometheus" } })).status)
      .toBe(200);
    const plain = await server.request({ path: "/metrics", user: { name: "a-plain" } });
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as { message: string }).message).toBe(
      'forbidden: User "a-plain" cannot get path "/metrics"',
    );
  });
});

describe("/metrics/slis", () => {
  it("serves the health checks' results kube-apiserver serves there", async () => {
    const server = await startServer({ listen: false, controllers: false });
    try {
      await server.request({ path: "/livez" });
      await server.request({ path: "/readyz?exclude=etcd" });
      const text = await (await server.request({ path: "/metrics/slis" })).text();
      expect(text).toContain(
        "# HELP kubernetes_healthcheck [STABLE] This metric records the result of a single healthcheck.\n",
      );
      expect(text).toContain('kubernetes_healthcheck{name="ping",type="livez"} 1\n');
      expect(text).toContain('kubernetes_healthchecks_total{name="etcd",status="success",type="livez"} 1\n');
      expect(text).not.toContain('type="readyz",name="etcd"');
      expect(text).not.toContain('kubernetes_healthchecks_total{name="etcd",status="success",type="readyz"}');
      expect(text).toContain(
        "# HELP process_start_time_seconds [ALPHA] Start time of the process since unix epoch in seconds.\n",
      );
      expect(text).not.toContain("apiserver_request_total");
      expect(text).not.toContain("registered_metrics_total");
    } finally {
      await server.close();
    }
  });
});

describe("--show-hidden-metrics-for-version", () => {
  it("is read by kapi serve, which refuses another release with kube-apiserver's text", () => {
    expect(parseServeFlags(["--show-hidden-metrics-for-version=1.35"]).showHiddenMetricsForVersion).toBe("1.35");
    expect(() => parseServeFlags(["--show-hidden-metrics-for-version", "1.34"])).toThrow(
      `metrics.showHiddenMetricsForVersion: Invalid value: "1.34": must be omitted or have the value '1.35'; only the previous minor version is allowed`,
    );
  });

  it("shows the hidden request SLO family with the previous release", async () => {
    const server = await startServer({ listen: false, controllers: false, showHiddenMetricsForVersion: "1.35" });
    try {
      await server.request({ path: ns });
      const text = await (await server.request({ path: "/metrics" })).text();
      expect(text).toContain(
        "# HELP apiserver_request_slo_duration_seconds [ALPHA] (Deprecated since 1.27.0) Response latency distribution",
      );
    } finally {
      await server.close();
    }
  });
});
