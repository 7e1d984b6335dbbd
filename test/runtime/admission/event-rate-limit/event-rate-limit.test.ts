// EventRateLimit on a started server, driven over HTTP. kube-apiserver's texts here come from kube's source
// (plugin/pkg/admission/eventratelimit): the reference server runs with its own admission plugins, so it
// cannot be asked with this one switched on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdmissionMetrics } from "../../../../runtime/admission/admission-metrics.js";
import { eventRateLimit } from "../../../../runtime/admission/event-rate-limit/event-rate-limit.js";
import type { AdmissionPluginContext } from "../../../../runtime/admission/plugin-context.js";
import { type RunningServer, startServer } from "../../../../runtime/index.js";

const token = "event-rate-limit-token";

function contextFor(server: RunningServer, text: string | undefined): AdmissionPluginContext {
  return {
    resources: server.resources,
    authorizer: () => {
      throw new Error("EventRateLimit asks no authorizer");
    },
    config: text === undefined ? undefined : { text, source: "/etc/kapi/event-rate-limit.yaml" },
    metrics: new AdmissionMetrics(),
    log: () => {},
  };
}

function configuration(limits: string): string {
  return `apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits:\n${limits}`;
}

interface EventFields {
  namespace?: string;
  source?: { component?: string; host?: string };
  involvedName?: string;
}

let counter = 0;

function event(fields: EventFields = {}): object {
  const namespace = fields.namespace ?? "default";
  counter++;
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: `erl-${counter}`, namespace },
    involvedObject: { kind: "Pod", namespace, name: fields.involvedName ?? "p", uid: "u-1", apiVersion: "v1" },
    reason: "Tested",
    message: "m",
    ...(fields.source === undefined ? {} : { source: fields.source }),
  };
}

describe("EventRateLimit", () => {
  let server: RunningServer;
  let clock = 1_000_000;
  const now = () => clock;

  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    for (const name of ["erl-a", "erl-b"]) {
      const res = await post("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => server.close());

  function post(path: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  }

  function postEvent(fields: EventFields = {}, headers: Record<string, string> = {}, query = ""): Promise<Response> {
    const namespace = fields.namespace ?? "default";
    return post(`/api/v1/namespaces/${namespace}/events${query}`, event(fields), headers);
  }

  /** Adds the plugin to the server; it stays for the tests after (the next one reads the same Server limit). */
  function install(limits: string): void {
    server.resources.addAdmission(eventRateLimit(contextFor(server, configuration(limits)), { now }));
  }

  async function expectRefused(res: Response, message: string): Promise<void> {
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `Too many requests: ${message}`,
      reason: "TooManyRequests",
      code: 429,
    });
  }

  it("fails to start without a configuration, or with an invalid one, as kube does", () => {
    expect(() => eventRateLimit(contextFor(server, undefined))).toThrow(
      /^limits: Invalid value: null: must not be empty$/,
    );
    expect(() => eventRateLimit(contextFor(server, configuration("  []")))).toThrow(
      /^limits: Invalid value: \[\]: must not be empty$/,
    );
    const bad = configuration(
      "  - type: Cluster\n    qps: 0\n    burst: -1\n  - type: User\n    qps: 1\n    burst: 1\n    cacheSize: -5\n",
    );
    expect(() => eventRateLimit(contextFor(server, bad))).toThrow(
      new Error(
        '[limits[0].type: Unsupported value: "Cluster": supported values: "Server", "Namespace", "User", "SourceAndObject", ' +
          "limits[0].burst: Invalid value: -1: must be positive, limits[0].qps: Invalid value: 0: must be positive, " +
          "limits[1].cacheSize: Invalid value: -5: must not be negative]",
      ),
    );
    const untyped = "limits:\n  - type: Server\n    qps: 1\n    burst: 1\n";
    expect(() => eventRateLimit(contextFor(server, untyped))).toThrow(
      new Error(`Object 'Kind' is missing in '${untyped}'`),
    );
    const wrongVersion = "apiVersion: eventratelimit.admission.k8s.io/v1\nkind: Configuration\n";
    expect(() => eventRateLimit(contextFor(server, wrongVersion))).toThrow(
      new Error(
        'no kind "Configuration" is registered for version "eventratelimit.admission.k8s.io/v1" in scheme "k8s.io/kubernetes/plugin/pkg/admission/eventratelimit/config.go:31"',
      ),
    );
    expect(() =>
      eventRateLimit(contextFor(server, configuration("  - type: Server\n    qps: fast\n    burst: 1\n"))),
    ).toThrow(new Error("json: cannot unmarshal string into Go struct field Limit.limits.qps of type int32"));
  });

  it("limits the whole server: burst first, then qps tokens a second", async () => {
    install("  - type: Server\n    qps: 2\n    burst: 3\n");
    for (let i = 0; i < 3; i++) expect((await postEvent()).status).toBe(201);
    await expectRefused(await postEvent({ namespace: "erl-a" }), "limit reached on type Server for key ");
    clock += 500;
    expect((await postEvent()).status).toBe(201);
    await expectRefused(await postEvent(), "limit reached on type Server for key ");
    // Unused tokens add up to the burst, no further.
    clock += 10_000;
    for (let i = 0; i < 3; i++) expect((await postEvent()).status).toBe(201);
    await expectRefused(await postEvent(), "limit reached on type Server for key ");
  });

  it("takes no token for a dry run, an events.k8s.io Event or another kind", async () => {
    clock += 60_000;
    for (let i = 0; i < 3; i++) expect((await postEvent({}, {}, "?dryRun=All")).status).toBe(201);
    const modern = {
      apiVersion: "events.k8s.io/v1",
      kind: "Event",
      metadata: { name: "erl-modern", namespace: "default" },
      eventTime: "2024-01-01T00:00:00.000000Z",
      reportingController: "example.com/c",
      reportingInstance: "i",
      action: "Tested",
      reason: "Tested",
      type: "Normal",
      regarding: { kind: "Pod", namespace: "default", name: "p" },
    };
    expect((await post("/apis/events.k8s.io/v1/namespaces/default/events", modern)).status).toBe(201);
    const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "erl-cm" } };
    expect((await post("/api/v1/namespaces/default/configmaps", configMap)).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await postEvent()).status).toBe(201);
    await expectRefused(await postEvent(), "limit reached on type Server for key ");
  });
});

describe("EventRateLimit's keyed limits", () => {
  let server: RunningServer;
  let clock = 1_000_000;
  const now = () => clock;

  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    for (const name of ["erl-a", "erl-b", "erl-c"]) {
      await fetch(`${server.url}/api/v1/namespaces`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name } }),
      });
    }
  });
  afterAll(() => server.close());

  function postEvent(fields: EventFields = {}, headers: Record<string, string> = {}): Promise<Response> {
    const namespace = fields.namespace ?? "default";
    return fetch(`${server.url}/api/v1/namespaces/${namespace}/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(event(fields)),
    });
  }

  async function refusal(res: Response): Promise<string> {
    expect(res.status).toBe(429);
    return ((await res.json()) as { message: string }).message;
  }

  it("keeps one bucket per namespace, per user and per source and object, each LRU of cacheSize", async () => {
    const limits = [
      "  - type: Namespace\n    qps: 1\n    burst: 2\n    cacheSize: 2\n",
      "  - type: User\n    qps: 1\n    burst: 3\n",
      "  - type: SourceAndObject\n    qps: 1\n    burst: 2\n",
    ].join("");
    const text = `apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits:\n${limits}`;
    server.resources.addAdmission(eventRateLimit(contextFor(server, text), { now }));

    // Namespace: two in erl-a, then refused there while erl-b still has its own bucket.
    const alice = as("alice");
    const bob = as("bob");
    const carol = as("carol");
    expect((await postEvent({ namespace: "erl-a", involvedName: "a1" }, alice)).status).toBe(201);
    expect((await postEvent({ namespace: "erl-a", involvedName: "a2" }, bob)).status).toBe(201);
    expect(await refusal(await postEvent({ namespace: "erl-a", involvedName: "a3" }, carol))).toBe(
      "Too many requests: limit reached on type Namespace for key erl-a",
    );
    // erl-b and erl-c fill the namespace cache of 2 and push erl-a out: it starts over with a full bucket.
    expect((await postEvent({ namespace: "erl-b", involvedName: "b1" }, carol)).status).toBe(201);
    expect((await postEvent({ namespace: "erl-c", involvedName: "c1" }, carol)).status).toBe(201);
    // Every limit takes its token even when another refuses: carol's refused write above used one of her 3.
    expect(await refusal(await postEvent({ namespace: "erl-a", involvedName: "a4" }, carol))).toBe(
      "Too many requests: limit reached on type User for key carol",
    );
    expect((await postEvent({ namespace: "erl-a", involvedName: "a4" }, alice)).status).toBe(201);

    // SourceAndObject: source component and host, then the involved object's kind, namespace, name, uid and
    // apiVersion, joined. erl-b left the namespace cache, so it starts full again.
    clock += 60_000;
    const source = { component: "kubelet", host: "node-1" };
    for (let i = 0; i < 2; i++) {
      const user = as(`user-${i}`);
      expect((await postEvent({ namespace: "erl-b", source, involvedName: "same" }, user)).status).toBe(201);
    }
    // Every limit out of tokens is named, in the configuration's order.
    expect(await refusal(await postEvent({ namespace: "erl-b", source, involvedName: "same" }, as("user-2")))).toBe(
      "Too many requests: [limit reached on type Namespace for key erl-b, limit reached on type SourceAndObject for key kubeletnode-1Poderl-bsameu-1v1]",
    );
  });

  it("refills with real time too", async () => {
    const text =
      "apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits:\n  - type: Server\n    qps: 20\n    burst: 1\n";
    const plugin = eventRateLimit(contextFor(server, text));
    const quiet = await startServer({ insecure: true, adminToken: token, controllers: false });
    try {
      quiet.resources.addAdmission(plugin);
      const send = () =>
        fetch(`${quiet.url}/api/v1/namespaces/default/events`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(event()),
        });
      expect((await send()).status).toBe(201);
      expect((await send()).status).toBe(429);
      await new Promise((r) => setTimeout(r, 80));
      expect((await send()).status).toBe(201);
    } finally {
      await quiet.close();
    }
  });
});

/** Impersonation headers for a user allowed to write events (a system:masters member). */
function as(user: string): Record<string, string> {
  return { "impersonate-user": user, "impersonate-group": "system:masters" };
}
