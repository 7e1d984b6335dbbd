// The parts of API Priority and Fairness that need no server: limits, classification, shuffle sharding,
// Retry-After, and the bootstrap configuration's statuses and limits compared with the reference's.
import { describe, expect, it } from "vitest";
import type {
  FlowSchema,
  PriorityLevelConfiguration,
} from "../../../generated/flowcontrol.apiserver.k8s.io/v1/types.js";
import { mandatoryFlowControl, suggestedFlowControl } from "../../../runtime/controllers/flow-control-defaults.js";
import { FlowControl } from "../../../runtime/flowcontrol/flow-control.js";
import { QueueSet } from "../../../runtime/flowcontrol/queue-set.js";
import { DroppedRequests } from "../../../runtime/flowcontrol/retry-after.js";
import { dealHand, flowHash } from "../../../runtime/flowcontrol/shuffle-sharding.js";
import { estimateSeats } from "../../../runtime/flowcontrol/work-estimate.js";
import type { RequestInfo } from "../../../runtime/routing/request-info.js";

const levels = [
  ...mandatoryFlowControl.priorityLevelConfigurations,
  ...suggestedFlowControl.priorityLevelConfigurations,
] as PriorityLevelConfiguration[];
const schemas = [...mandatoryFlowControl.flowSchemas, ...suggestedFlowControl.flowSchemas] as FlowSchema[];

function info(partial: Partial<RequestInfo>): RequestInfo {
  return {
    isResourceRequest: true,
    path: "/api/v1/namespaces/default/pods",
    verb: "list",
    apiPrefix: "api",
    group: "",
    version: "v1",
    namespace: "default",
    resource: "pods",
    subresource: "",
    name: "",
    parts: ["pods"],
    ...partial,
  };
}

describe("flow control configuration", () => {
  it("gives the bootstrap levels the reference's nominal, lower and upper limits (600 seats)", () => {
    const control = new FlowControl(600);
    control.configure(levels, schemas);
    const limits = Object.fromEntries(
      [...control.priorityLevels().values()].map((l) => [l.name, [l.nominal, l.lower, l.upper]]),
    );
    // kube-apiserver v1.36.2's apiserver_flowcontrol_{nominal,lower,upper}_limit_seats with default flags.
    expect(limits).toEqual({
      "catch-all": [13, 13, 613],
      exempt: [0, 0, 600],
      "global-default": [49, 24, 649],
      "leader-election": [25, 25, 625],
      "node-high": [98, 73, 698],
      system: [74, 50, 674],
      "workload-high": [98, 49, 698],
      "workload-low": [245, 24, 845],
    });
  });

  it("finds every bootstrap FlowSchema's level, as the reference's Dangling=False conditions say", () => {
    const control = new FlowControl(600);
    const updates = control.configure(levels, schemas);
    expect(updates.map((u) => u.name).sort()).toEqual(schemas.map((s) => s.metadata?.name).sort());
    const probes = updates.find((u) => u.name === "probes")?.condition;
    expect({ ...probes, lastTransitionTime: undefined }).toEqual({
      type: "Dangling",
      status: "False",
      reason: "Found",
      message: 'This FlowSchema references the PriorityLevelConfiguration object named "exempt" and it exists',
      lastTransitionTime: undefined,
    });
    // Conditions already as they should be are not written again.
    const written = schemas.map((s) => ({
      ...s,
      status: { conditions: [updates.find((u) => u.name === s.metadata?.name)?.condition ?? {}] },
    }));
    expect(control.configure(levels, written)).toEqual([]);
  });

  it("classifies by the lowest matching precedence, then name, and falls back to catch-all", () => {
    const control = new FlowControl(600);
    control.configure(levels, schemas);
    const of = (user: { name: string; groups: string[] }, request: Partial<RequestInfo>) =>
      control.classify(user, info(request)).flowSchema.name;
    expect(of({ name: "admin", groups: ["system:masters", "system:authenticated"] }, {})).toBe("exempt");
    expect(of({ name: "system:kube-scheduler", groups: ["system:authenticated"] }, {})).toBe("kube-scheduler");
    expect(of({ name: "system:serviceaccount:ns1:sa", groups: ["system:serviceaccounts"] }, {})).toBe(
      "service-accounts",
    );
    expect(of({ name: "system:serviceaccount:kube-system:sa", groups: ["system:serviceaccounts"] }, {})).toBe(
      "kube-system-service-accounts",
    );
    const anonymous = { name: "system:anonymous", groups: ["system:unauthenticated"] };
    expect(of(anonymous, { isResourceRequest: false, path: "/healthz", verb: "get" })).toBe("probes");
    // `/livez` covers the paths under it too, as kube matches non-resource URLs.
    expect(of(anonymous, { isResourceRequest: false, path: "/livez/etcd", verb: "get" })).toBe("probes");
    expect(of(anonymous, { isResourceRequest: false, path: "/metrics", verb: "get" })).toBe("global-default");
    expect(of({ name: "jane", groups: ["system:authenticated"] }, {})).toBe("global-default");
    // Nothing matches a user in no group: the catch-all schema takes it.
    expect(of({ name: "nobody", groups: [] }, {})).toBe("catch-all");
  });

  it("imagines the mandatory objects while they do not exist, and ignores a schema whose level is missing", () => {
    const control = new FlowControl(600);
    const dangling = { metadata: { name: "c-x" }, spec: { priorityLevelConfiguration: { name: "none" } } };
    const updates = control.configure([], [dangling as FlowSchema]);
    expect(updates[0]?.condition.status).toBe("True");
    expect([...control.priorityLevels().keys()].sort()).toEqual(["catch-all", "exempt"]);
    expect(control.flowSchemas().map((s) => s.metadata?.name)).toEqual(["exempt", "catch-all"]);
  });
});

describe("shuffle sharding", () => {
  it("deals distinct cards within the deck, the same for the same flow", () => {
    const hash = flowHash("global-default", "jane");
    const hand = dealHand(hash, 128, 6);
    expect(new Set(hand).size).toBe(6);
    expect(hand.every((card) => card >= 0 && card < 128)).toBe(true);
    expect(dealHand(flowHash("global-default", "jane"), 128, 6)).toEqual(hand);
    expect(dealHand(0n, 4, 4)).toEqual([0, 1, 2, 3]);
  });
});

describe("queue set", () => {
  it("dispatches waiting requests fairly between queues", async () => {
    const set = new QueueSet({ concurrencyLimit: 1, queues: 2, handSize: 1, queueLengthLimit: 10, exempt: false });
    const waiting = (hash: bigint) => ({ flowHash: () => hash, limitMs: 60_000, watchCancel: () => () => {} });
    // Two flows whose one-queue hands differ.
    const [a, b] = [0n, 1n];
    const first = await set.acquire(1, waiting(a));
    const order: string[] = [];
    const noted = (name: string, hash: bigint) =>
      set.acquire(1, waiting(hash)).then((outcome) => {
        order.push(name);
        return outcome;
      });
    const pending = [noted("a1", a), noted("a2", a), noted("b1", b)];
    expect(set.requestsWaiting).toBe(3);
    const release = (o: Awaited<(typeof pending)[number]> | undefined) =>
      o !== undefined && "grant" in o ? o.grant.release() : undefined;
    if ("grant" in first) first.grant.release();
    release(await pending[2]);
    release(await pending[0]);
    release(await pending[1]);
    // Queue a already had a request served: b's goes first, then the queues take turns.
    expect(order).toEqual(["b1", "a1", "a2"]);
  });
});

describe("work estimate", () => {
  it("sizes lists and initial watches by the bytes of the collection, 100 kB a seat, at most 1 MB", () => {
    const stats = { objectCount: 1000, storedBytes: 1000 * 2000 };
    const query = (text: string) => new URLSearchParams(text);
    expect(estimateSeats(info({}), query(""), stats, 0)).toBe(10);
    expect(estimateSeats(info({}), query("limit=100"), stats, 0)).toBe(2);
    expect(estimateSeats(info({}), query(""), stats, 3)).toBe(3);
    expect(estimateSeats(info({ name: "x" }), query(""), stats, 0)).toBe(1);
    expect(estimateSeats(info({ verb: "watch" }), query(""), stats, 0)).toBe(10);
    expect(estimateSeats(info({ verb: "watch" }), query("resourceVersion=5"), stats, 0)).toBe(1);
    expect(estimateSeats(info({ verb: "create" }), query(""), stats, 0)).toBe(1);
    expect(estimateSeats(info({}), query(""), undefined, 0)).toBe(1);
  });
});

describe("Retry-After", () => {
  it("starts at 1 s, doubles under sustained rejection and comes back down", () => {
    let now = 1_000_000;
    const dropped = new DroppedRequests(() => now);
    expect(dropped.retryAfter("l")).toBe(1);
    for (let second = 0; second < 4; second++) {
      for (let i = 0; i < 10; i++) dropped.record("l");
      now += 1000;
    }
    expect(dropped.retryAfter("l")).toBeGreaterThan(1);
    const grown = dropped.retryAfter("l");
    for (let i = 0; i < 10; i++) {
      now += 10_000;
      dropped.record("l");
    }
    expect(dropped.retryAfter("l")).toBeLessThan(grown);
  });
});
