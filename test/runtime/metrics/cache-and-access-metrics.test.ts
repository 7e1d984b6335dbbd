// The watch cache's and the authorizers' families, the process collectors shared by every server of a
// process, and the system:monitoring ClusterRole, compared with kube-apiserver v1.36.2's answers (recorded:
// help texts from its /metrics; the deltas of a create, a GET, a list and a list at resourceVersion=1 on
// configmaps; `kubectl get clusterrole system:monitoring -o json`'s rules).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthorizer } from "../../../runtime/authz/build-authorizer.js";
import { MetricRegistry } from "../../../runtime/metrics/metric-registry.js";
import { registerProcessMetrics } from "../../../runtime/metrics/process-metrics.js";
import { type InProcessServer, startServer } from "../../../runtime/server/start-server.js";

const ns = "/api/v1/namespaces/default/configmaps";
const configmaps = '{group="",resource="configmaps"}';

function sample(text: string, series: string): number | undefined {
  const found = text.split("\n").find((l) => l.startsWith(`${series} `));
  return found === undefined ? undefined : Number(found.slice(series.length + 1));
}

/** The reference's help lines for the families kapi's watch cache and authorizers report. */
const referenceHelp = [
  "# HELP apiserver_authorization_decisions_total [ALPHA] Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.",
  "# HELP apiserver_watch_cache_events_dispatched_total [ALPHA] Counter of events dispatched in watch cache broken by resource type.",
  "# HELP apiserver_watch_cache_events_received_total [ALPHA] Counter of events received in watch cache broken by resource type.",
  "# HELP apiserver_watch_cache_initializations_total [ALPHA] Counter of watch cache initializations broken by resource type.",
  "# HELP apiserver_watch_cache_read_wait_seconds [ALPHA] Histogram of time spent waiting for a watch cache to become fresh.",
  "# HELP apiserver_watch_cache_resource_version [ALPHA] Current resource version of watch cache broken by resource type. This is truncated to the 15 least significant digits.",
];

describe("watch cache and authorization families", () => {
  let server: InProcessServer;
  let before: string;
  let after: string;
  let createdAt: number;

  beforeAll(async () => {
    server = await startServer({ listen: false, controllers: false });
    await server.request({ path: ns });
    before = await (await server.request({ path: "/metrics" })).text();
    const created = await server.request({
      method: "POST",
      path: ns,
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a2-probe" }, data: { k: "v" } },
    });
    createdAt = Number(((await created.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    await server.request({ path: `${ns}/a2-probe` });
    await server.request({ path: ns });
    await server.request({ path: `${ns}?resourceVersion=1` });
    await server.request({
      method: "POST",
      path: "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
      body: {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name: "a2-monitoring" },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:monitoring" },
        subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "a2-prometheus" }],
      },
    });
    // The binding reaches the RBAC index through its watch.
    for (let tries = 0; tries < 100; tries++) {
      if ((await server.request({ path: "/metrics", user: { name: "a2-prometheus" } })).status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await server.request({ path: "/metrics", user: { name: "a2-plain" } });
    after = await (await server.request({ path: "/metrics" })).text();
  });
  afterAll(() => server?.close());

  it("has kube's help texts", () => {
    for (const help of referenceHelp) expect(after).toContain(`${help}\n`);
    expect(after).toContain("# TYPE apiserver_watch_cache_read_wait_seconds histogram\n");
    expect(after).toContain(
      'apiserver_watch_cache_read_wait_seconds_bucket{le="0.005",group="",resource="configmaps"}',
    );
  });

  it("counts the cache's initialization and each event it receives and dispatches, as the reference did", () => {
    // The reference: one create added 1 received and at least 1 dispatched (its progress bookmarks add more).
    expect(sample(after, `apiserver_watch_cache_initializations_total${configmaps}`)).toBe(1);
    const received = (text: string) => sample(text, `apiserver_watch_cache_events_received_total${configmaps}`) ?? 0;
    const dispatched = (text: string) =>
      sample(text, `apiserver_watch_cache_events_dispatched_total${configmaps}`) ?? 0;
    expect(received(after) - received(before)).toBe(1);
    expect(dispatched(after) - dispatched(before)).toBeGreaterThanOrEqual(1);
    expect(sample(after, `apiserver_watch_cache_resource_version${configmaps}`)).toBeGreaterThanOrEqual(createdAt);
  });

  it("observes the waits of reads at a revision (the reference: the list, and the list at resourceVersion=1)", () => {
    const count = (text: string) => sample(text, `apiserver_watch_cache_read_wait_seconds_count${configmaps}`) ?? 0;
    expect(count(after) - count(before)).toBeGreaterThanOrEqual(2);
  });

  it("counts RBAC's terminal decisions by type and name; no opinion and system:masters are not counted", () => {
    expect(
      sample(after, 'apiserver_authorization_decisions_total{type="RBAC",name="rbac",decision="allowed"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('decision="denied"');
  });
});

describe("apiserver_authorization_decisions_total", () => {
  it("counts an allow by the authorizer that made it, and not kube's AlwaysDeny (which has no opinion)", async () => {
    const metrics = new MetricRegistry({ meta: false });
    const { authorizer } = createAuthorizer({ authorizationMode: "AlwaysDeny,AlwaysAllow" }, {}, { metrics });
    const user = { name: "a2-jane", uid: "", groups: ["system:authenticated"], extra: {} };
    const decision = await authorizer.authorize({
      user,
      verb: "get",
      resourceRequest: false,
      apiGroup: "",
      apiVersion: "",
      resource: "",
      subresource: "",
      namespace: "",
      name: "",
      path: "/metrics",
    });
    expect(decision.decision).toBe("allow");
    const text = await metrics.text();
    expect(text).toContain(
      'apiserver_authorization_decisions_total{type="AlwaysAllow",name="alwaysallow",decision="allowed"} 1\n',
    );
    expect(text).not.toContain('type="AlwaysDeny"');
  });
});

describe("the process collectors", () => {
  it("are made once per process and exported by every server's registry", async () => {
    const build = {
      major: "1",
      minor: "36",
      gitVersion: "v1.36.2-kapi",
      gitCommit: "",
      gitTreeState: "",
      buildDate: "",
      goVersion: "",
      compiler: "",
      platform: "",
    };
    const first = new MetricRegistry();
    const second = new MetricRegistry();
    registerProcessMetrics(first, build);
    registerProcessMetrics(second, build);
    const cpu = first.registry.getSingleMetric("process_cpu_seconds_total");
    expect(cpu).toBeDefined();
    expect(second.registry.getSingleMetric("process_cpu_seconds_total")).toBe(cpu);
    expect(first.registry.getSingleMetric("nodejs_gc_duration_seconds")).toBe(
      second.registry.getSingleMetric("nodejs_gc_duration_seconds"),
    );
    expect(await second.text()).toContain("# TYPE process_resident_memory_bytes gauge\n");
  });
});

describe("the system:monitoring ClusterRole", () => {
  it("has the reference's rules", async () => {
    const server = await startServer({ listen: false, controllers: false });
    try {
      const role = await server.request({ path: "/apis/rbac.authorization.k8s.io/v1/clusterroles/system:monitoring" });
      expect(((await role.json()) as { rules: unknown }).rules).toEqual([
        {
          verbs: ["get"],
          nonResourceURLs: [
            "/flagz",
            "/healthz",
            "/healthz/*",
            "/livez",
            "/livez/*",
            "/metrics",
            "/metrics/slis",
            "/readyz",
            "/readyz/*",
            "/statusz",
          ],
        },
        { verbs: ["get"], apiGroups: [""], resources: ["nodes/metrics"] },
      ]);
    } finally {
      await server.close();
    }
  });
});
