import { describe, expect, it } from "vitest";
import { fieldTable } from "../../../generated/fields.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import { applyStrategicMergePatch, servesStrategicMergePatch } from "../../../runtime/patch/strategic-merge-patch.js";

type Json = Record<string, unknown>;

function kind(key: string): number {
  const root = fieldTable.kinds[key];
  if (root === undefined) throw new Error(`no kind ${key}`);
  return root;
}

function patchAs(key: string) {
  return (original: unknown, patch: unknown) => applyStrategicMergePatch(original, patch, fieldTable, kind(key));
}

const patchPod = patchAs("v1/Pod");
const patchDeployment = patchAs("apps/v1/Deployment");

function statusOf(run: () => unknown): { code: number; reason: string | undefined; message: string; causes?: unknown } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof StatusError)) throw error;
    return {
      code: error.code,
      reason: error.reason,
      message: error.message,
      ...(error.status.details?.causes ? { causes: error.status.details.causes } : {}),
    };
  }
  throw new Error("expected a StatusError");
}

const podSpec = (spec: Json): Json => ({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec });
const names = (...n: string[]) => n.map((name) => ({ name }));
const containerNames = (pod: unknown) =>
  ((pod as { spec: { containers: { name: string }[] } }).spec.containers ?? []).map((c) => c.name);

describe("maps", () => {
  it.each([
    {
      name: "merges key by key and adds new keys",
      original: { metadata: { name: "p", labels: { app: "web", tier: "fe" } } },
      patch: { metadata: { labels: { tier: "be", env: "prod" } } },
      want: { metadata: { name: "p", labels: { app: "web", tier: "be", env: "prod" } } },
    },
    {
      name: "null deletes a key, and a null for a missing key is dropped",
      original: { metadata: { name: "p", labels: { app: "web", tier: "fe" } }, spec: { restartPolicy: "Always" } },
      patch: { metadata: { labels: { tier: null, nothere: null } }, spec: { restartPolicy: null } },
      want: { metadata: { name: "p", labels: { app: "web" } }, spec: {} },
    },
    {
      name: "a new map is taken without its nulls",
      original: { metadata: { name: "p" } },
      patch: { metadata: { annotations: { a: "1", b: null } } },
      want: { metadata: { name: "p", annotations: { a: "1" } } },
    },
    {
      name: "$patch: replace replaces the map",
      original: { metadata: { name: "p", labels: { app: "web", tier: "fe" } } },
      patch: { metadata: { labels: { $patch: "replace", run: "x" } } },
      want: { metadata: { name: "p", labels: { run: "x" } } },
    },
    {
      name: "$patch: delete empties the map",
      original: { metadata: { name: "p", labels: { app: "web" } } },
      patch: { metadata: { labels: { $patch: "delete" } } },
      want: { metadata: { name: "p", labels: {} } },
    },
    {
      name: "a map with $patch the original lacks is dropped, as kube drops it",
      original: { metadata: { name: "p" } },
      patch: { metadata: { labels: { $patch: "replace", app: "web" } } },
      want: { metadata: { name: "p" } },
    },
    {
      name: "a value of another type replaces the original",
      original: { metadata: { name: "p", labels: { app: "web" } } },
      patch: { metadata: { labels: "none" } },
      want: { metadata: { name: "p", labels: "none" } },
    },
  ])("$name", ({ original, patch, want }) => {
    expect(patchPod(original, patch)).toEqual(want);
  });

  it("a JSON null patch changes nothing, and neither input is modified", () => {
    const original = podSpec({ containers: [{ name: "a", image: "x" }] });
    const patch = {
      spec: {
        containers: [
          { name: "a", image: "y" },
          { name: "b", $patch: "delete" },
        ],
      },
    };
    const before = structuredClone({ original, patch });
    expect(patchPod(original, null)).toEqual(original);
    patchPod(original, patch);
    expect({ original, patch }).toEqual(before);
  });

  it("$patch: replace at the top replaces the whole object", () => {
    expect(patchPod(podSpec({ restartPolicy: "Always" }), { $patch: "replace", metadata: { name: "q" } })).toEqual({
      metadata: { name: "q" },
    });
  });

  it("the replace strategy (PodDisruptionBudget .spec.selector) replaces the map", () => {
    const pdb = {
      spec: { selector: { matchLabels: { app: "a" }, matchExpressions: [{ key: "k", operator: "Exists" }] } },
    };
    const got = patchAs("policy/v1/PodDisruptionBudget")(pdb, { spec: { selector: { matchLabels: { app: "b" } } } });
    expect(got).toEqual({ spec: { selector: { matchLabels: { app: "b" } } } });
  });
});

describe("lists merged by key", () => {
  const deployment = (containers: unknown[]): Json => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d" },
    spec: { template: { spec: { containers } } },
  });
  const containersOf = (d: unknown) =>
    (d as { spec: { template: { spec: { containers: Json[] } } } }).spec.template.spec.containers;

  it("merges Deployment containers by name and env by name", () => {
    const web = (image: string, b: string) => ({
      name: "web",
      image,
      env: [
        { name: "A", value: "1" },
        { name: "B", value: b },
      ],
    });
    const log = { name: "log", image: "fluentd" };
    const patch = {
      spec: {
        template: { spec: { containers: [{ name: "web", image: "nginx:1.26", env: [{ name: "B", value: "3" }] }] } },
      },
    };
    expect(containersOf(patchDeployment(deployment([web("nginx:1.25", "2"), log]), patch))).toEqual([
      web("nginx:1.26", "3"),
      log,
    ]);
  });

  it("merges container ports by containerPort; a new item without $setElementOrder goes first", () => {
    const original = deployment([
      { name: "web", ports: [{ containerPort: 80, protocol: "TCP" }, { containerPort: 443 }] },
    ]);
    const patch = {
      spec: {
        template: {
          spec: {
            containers: [{ name: "web", ports: [{ containerPort: 443, name: "https" }, { containerPort: 8080 }] }],
          },
        },
      },
    };
    expect(containersOf(patchDeployment(original, patch))[0]?.ports).toEqual([
      { containerPort: 80, protocol: "TCP" },
      { containerPort: 443, name: "https" },
      { containerPort: 8080 },
    ]);
    const added = { spec: { template: { spec: { containers: [{ name: "web", ports: [{ containerPort: 9090 }] }] } } } };
    expect(containersOf(patchDeployment(original, added))[0]?.ports).toEqual([
      { containerPort: 9090 },
      { containerPort: 80, protocol: "TCP" },
      { containerPort: 443 },
    ]);
  });

  it.each([
    {
      name: "items named by the patch take the patch's order, server-only items keep their place",
      original: [{ name: "1" }, { name: "2", image: "b" }, { name: "3" }],
      patch: [
        { name: "3", image: "c" },
        { name: "1", image: "a" },
      ],
      want: [
        { name: "2", image: "b" },
        { name: "3", image: "c" },
        { name: "1", image: "a" },
      ],
    },
    {
      name: "$patch: delete removes every item with the key",
      original: [{ name: "1" }, { name: "1" }, { name: "2", image: "a" }, { name: "3" }],
      patch: [
        { name: "1", $patch: "delete" },
        { name: "3", $patch: "delete" },
      ],
      want: [{ name: "2", image: "a" }],
    },
    {
      name: "$patch: replace makes the other items the list",
      original: [{ name: "1" }, { name: "2" }],
      patch: [{ $patch: "replace" }, { name: "9", image: "x" }],
      want: [{ name: "9", image: "x" }],
    },
    {
      name: "$patch: replace alone empties the list",
      original: [{ name: "1" }, { name: "2" }],
      patch: [{ $patch: "replace" }],
      want: [],
    },
    {
      name: "a new item is taken as sent, directives and nulls included",
      original: [{ name: "1" }],
      patch: [{ name: "2", image: null, env: [{ name: "A", $patch: "delete" }] }],
      want: [{ name: "2", image: null, env: [{ name: "A", $patch: "delete" }] }, { name: "1" }],
    },
  ])("$name", ({ original, patch, want }) => {
    expect(
      containersOf(patchDeployment(deployment(original), { spec: { template: { spec: { containers: patch } } } })),
    ).toEqual(want);
  });

  it("a list the original lacks is taken without its $patch items", () => {
    const got = patchPod(podSpec({}), { spec: { containers: [{ name: "a" }, { name: "b", $patch: "delete" }] } });
    expect(containerNames(got)).toEqual(["a"]);
  });

  it("lists without the merge strategy are replaced (tolerations, container args)", () => {
    const original = podSpec({
      tolerations: [{ key: "a", operator: "Exists" }],
      containers: [{ name: "c", args: ["x", "y"] }],
    });
    const got = patchPod(original, {
      spec: { tolerations: [{ key: "b", operator: "Exists" }], containers: [{ name: "c", args: ["z"] }] },
    });
    expect(got).toEqual(
      podSpec({ tolerations: [{ key: "b", operator: "Exists" }], containers: [{ name: "c", args: ["z"] }] }),
    );
  });
});

describe("lists of primitives with the merge strategy (finalizers)", () => {
  const withFinalizers = (finalizers: string[]) => ({ metadata: { name: "p", finalizers } });
  const finalizersOf = (o: unknown) => (o as { metadata: { finalizers?: string[] } }).metadata.finalizers;

  it.each([
    {
      name: "union keeps the live items and adds new ones",
      live: ["a", "b"],
      patch: { finalizers: ["b", "c"] },
      want: ["a", "b", "c"],
    },
    {
      name: "items named by the patch follow its order",
      live: ["a", "b", "c"],
      patch: { finalizers: ["c", "a", "b"] },
      want: ["c", "a", "b"],
    },
    {
      name: "server-only items stay in place",
      live: ["a", "b", "c"],
      patch: { finalizers: ["c", "a"] },
      want: ["b", "c", "a"],
    },
    { name: "a new item goes first", live: ["a", "b"], patch: { finalizers: ["z"] }, want: ["z", "a", "b"] },
    { name: "duplicates collapse", live: ["a", "a", "b"], patch: { finalizers: ["b"] }, want: ["a", "b"] },
    {
      name: "$deleteFromPrimitiveList removes every copy",
      live: ["a", "b", "b", "c"],
      patch: { "$deleteFromPrimitiveList/finalizers": ["b", "zz"] },
      want: ["a", "c"],
    },
    {
      name: "$setElementOrder orders the list, keeping items it does not name",
      live: ["1", "2", "3", "4"],
      patch: { "$setElementOrder/finalizers": ["2", "1"], "$deleteFromPrimitiveList/finalizers": ["3"] },
      want: ["2", "1", "4"],
    },
    {
      name: "$setElementOrder with additions and deletions",
      live: ["1", "2", "3"],
      patch: {
        "$setElementOrder/finalizers": ["1", "2", "4"],
        "$deleteFromPrimitiveList/finalizers": ["3"],
        finalizers: ["4"],
      },
      want: ["1", "2", "4"],
    },
    {
      name: "$setElementOrder may name items the list lacks",
      live: ["1", "3"],
      patch: { "$setElementOrder/finalizers": ["3", "2", "1"] },
      want: ["3", "1"],
    },
  ])("$name", ({ live, patch, want }) => {
    expect(finalizersOf(patchPod(withFinalizers(live), { metadata: patch }))).toEqual(want);
  });

  it("a null deletion list removes the list, as kube does", () => {
    expect(
      finalizersOf(patchPod(withFinalizers(["a"]), { metadata: { "$deleteFromPrimitiveList/finalizers": null } })),
    ).toBe(undefined);
  });

  it("a deletion list for a missing list changes nothing", () => {
    expect(
      patchPod({ metadata: { name: "p" } }, { metadata: { "$deleteFromPrimitiveList/finalizers": ["a"] } }),
    ).toEqual({
      metadata: { name: "p" },
    });
  });
});

describe("$setElementOrder on keyed lists", () => {
  const spec = (containers: unknown[]) => podSpec({ containers });
  const run = (live: unknown[], order: string[], containers?: unknown[]) =>
    containerNames(
      patchPod(spec(live), {
        spec: { "$setElementOrder/containers": names(...order), ...(containers ? { containers } : {}) },
      }),
    );

  it("reorders without content changes", () => {
    expect(run(names("a", "b", "c"), ["c", "a", "b"])).toEqual(["c", "a", "b"]);
  });

  it("places new items by the order list and server-only items by their live neighbours", () => {
    expect(run(names("1", "2"), ["4", "1", "2", "3"], [{ name: "4" }, { name: "3" }])).toEqual(["4", "1", "2", "3"]);
    expect(run([{ name: "1" }, { name: "3" }], ["1", "2"], [{ name: "2" }])).toEqual(["1", "2", "3"]);
  });

  it("orders a deletion plus an addition exactly as kube (the live list is edited in place)", () => {
    // kube's own fixtures: "add map and delete map from merging list" with and without conflict.
    expect(run(names("1", "2", "4"), ["2", "3"], [{ name: "3" }, { name: "1", $patch: "delete" }])).toEqual([
      "2",
      "4",
      "3",
    ]);
    expect(run(names("1", "4"), ["2", "3"], [{ name: "2" }, { name: "3" }, { name: "1", $patch: "delete" }])).toEqual([
      "4",
      "2",
      "3",
    ]);
  });

  it("places a server-only container next to a renamed one by the edited live list", () => {
    // Deleting "web" shifts the live list left and "app" lands in the freed slot, so "istio-proxy" sorts before it.
    expect(
      run(names("web", "istio-proxy", "log"), ["app", "log"], [{ name: "app" }, { name: "web", $patch: "delete" }]),
    ).toEqual(["istio-proxy", "app", "log"]);
    expect(
      run(names("web", "istio-proxy", "old"), ["web", "new"], [{ name: "new" }, { name: "old", $patch: "delete" }]),
    ).toEqual(["web", "istio-proxy", "new"]);
  });

  it("is applied inside merged items too", () => {
    const live = spec([{ name: "c", env: [{ name: "A" }, { name: "B" }, { name: "C" }] }]);
    const got = patchPod(live, {
      spec: {
        containers: [{ name: "c", "$setElementOrder/env": names("C", "A", "B"), env: [{ name: "A", value: "1" }] }],
      },
    });
    expect((got as { spec: { containers: { env: unknown[] }[] } }).spec.containers[0]?.env).toEqual([
      { name: "C" },
      { name: "A", value: "1" },
      { name: "B" },
    ]);
  });
});

describe("$retainKeys", () => {
  const deployment = (strategy: Json) => ({ metadata: { name: "d" }, spec: { replicas: 1, strategy } });
  const rolling = { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" } };

  it("clears the keys it does not list (Deployment .spec.strategy)", () => {
    const got = patchDeployment(deployment(rolling), {
      spec: { strategy: { $retainKeys: ["type"], rollingUpdate: null, type: "Recreate" } },
    });
    expect(got).toEqual(deployment({ type: "Recreate" }));
  });

  it("merges the keys it lists", () => {
    const got = patchDeployment(deployment(rolling), {
      spec: { strategy: { $retainKeys: ["type", "rollingUpdate"], rollingUpdate: { maxSurge: 1 } } },
    });
    expect(got).toEqual(deployment({ type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: "25%" } }));
  });

  it("switches a Pod volume's source (volumes are merge,retainKeys by name)", () => {
    const live = podSpec({
      volumes: [
        { name: "data", emptyDir: {} },
        { name: "cfg", configMap: { name: "c" } },
      ],
    });
    const got = patchPod(live, {
      spec: { volumes: [{ name: "data", $retainKeys: ["hostPath", "name"], hostPath: { path: "/srv" } }] },
    });
    expect(got).toEqual(
      podSpec({
        volumes: [
          { name: "data", hostPath: { path: "/srv" } },
          { name: "cfg", configMap: { name: "c" } },
        ],
      }),
    );
  });

  it.each([
    { name: "a patch key it does not list", strategy: { $retainKeys: ["type"], rollingUpdate: { maxSurge: 1 } } },
    { name: "a value that is not a list", strategy: { $retainKeys: "type" } },
  ])("refuses $name with 400", ({ strategy }) => {
    expect(statusOf(() => patchDeployment(deployment(rolling), { spec: { strategy } }))).toEqual({
      code: 400,
      reason: "BadRequest",
      message: "invalid patch format of retainKeys",
    });
  });
});

describe("untyped values (RawExtension: ControllerRevision .data)", () => {
  const patchRevision = patchAs("apps/v1/ControllerRevision");
  const revision = { metadata: { name: "r" }, revision: 1, data: { spec: { replicas: 1 }, tags: ["a"], note: "x" } };

  it("merges top-level keys: scalars replaced, nulls delete, new keys added", () => {
    expect(patchRevision(revision, { data: { note: "y", tags: null, extra: { a: 1, b: null } } })).toEqual({
      ...revision,
      data: { spec: { replicas: 1 }, note: "y", extra: { a: 1 } },
    });
  });

  it.each([
    { key: "spec", value: { replicas: 2 } },
    { key: "tags", value: ["b"] },
  ])(
    "refuses an object or list on both sides ($key) with kube's words (a 400: kube's 500 is the patch's fault)",
    ({ key, value }) => {
      expect(statusOf(() => patchRevision(revision, { data: { [key]: value } }))).toEqual({
        code: 400,
        reason: "BadRequest",
        message: `unable to find api field in struct RawExtension for the json field "${key}"`,
      });
    },
  );
});

describe("errors", () => {
  const live = podSpec({ containers: [{ name: "web", image: "x" }], volumes: [{ name: "v", emptyDir: {} }] });
  // kube answers these 500; kapi keeps kube's words but answers 400, since the patch is at fault.
  const failure = (message: string) => ({ code: 400, reason: "BadRequest", message });
  const bad = (message: string) => ({ code: 400, reason: "BadRequest", message });

  it.each([
    {
      name: "an array",
      patch: [],
      want: bad("json: cannot unmarshal array into Go value of type map[string]interface {}"),
    },
    {
      name: "a string",
      patch: "x",
      want: bad("json: cannot unmarshal string into Go value of type map[string]interface {}"),
    },
    {
      name: "a number",
      patch: 1,
      want: bad("json: cannot unmarshal number into Go value of type map[string]interface {}"),
    },
    {
      name: "a bool",
      patch: true,
      want: bad("json: cannot unmarshal bool into Go value of type map[string]interface {}"),
    },
  ])("a patch that is $name is a 400", ({ patch, want }) => {
    expect(statusOf(() => patchPod(live, patch))).toEqual(want);
  });

  it.each([
    {
      name: "merge key missing in a patch list item",
      patch: { spec: { containers: [{ image: "nginx" }] } },
      want: failure("map: map[image:nginx] does not contain declared merge key: name"),
    },
    {
      name: "merge key missing in a $patch: delete item",
      patch: { spec: { volumes: [{ $patch: "delete" }] } },
      want: failure("map: map[$patch:delete] does not contain declared merge key: name"),
    },
    {
      name: "unknown $patch on a map",
      patch: { spec: { $patch: "merge" } },
      want: failure("unknown patch type: merge in map: map[$patch:merge]"),
    },
    {
      name: "a $patch value that is not a string",
      patch: { metadata: { $patch: 1 } },
      want: failure("unknown patch type: %!s(int64=1) in map: map[$patch:1]"),
    },
    {
      name: "unknown $patch on a list item",
      patch: { spec: { containers: [{ name: "web", $patch: "remove" }] } },
      want: failure("unknown patch type: remove in map: map[$patch:remove name:web]"),
    },
    {
      name: "$patch: merge on a list item",
      patch: { spec: { containers: [{ name: "web", $patch: "merge" }] } },
      want: failure("merging lists cannot yet be specified in the patch"),
    },
    {
      name: "$setElementOrder items without the merge key",
      patch: { spec: { "$setElementOrder/containers": [{ image: "x" }], containers: [{ name: "web" }] } },
      want: failure("map: map[image:x] does not contain declared merge key: name"),
    },
    {
      name: "$setElementOrder items that are not maps",
      patch: { spec: { "$setElementOrder/containers": ["web"] } },
      want: failure("value for key 0 is not a map."),
    },
    {
      name: "$setElementOrder contradicting the patch list",
      patch: {
        spec: { "$setElementOrder/containers": names("web", "b"), containers: [{ name: "b" }, { name: "web" }] },
      },
      want: failure(
        "The order in patch list:\n[map[name:b] map[name:web]]\n doesn't match $setElementOrder list:\n[map[name:web] map[name:b]]\n",
      ),
    },
    {
      name: "a $setElementOrder that is not a list",
      patch: { spec: { "$setElementOrder/containers": "web" } },
      want: failure("expected a []interface {}, but received a string"),
    },
    {
      name: "a $setElementOrder for a field the struct lacks",
      patch: { spec: { "$setElementOrder/sidecars": [] } },
      want: failure('unable to find api field in struct PodSpec for the json field "sidecars"'),
    },
    {
      name: "a $setElementOrder for a field that is not a list",
      patch: { spec: { "$setElementOrder/restartPolicy": [] } },
      want: failure("expected slice or array type, but got: struct"),
    },
    {
      name: "items of different types in a merged list",
      patch: { metadata: { finalizers: [1] } },
      want: failure("list element types are not identical: [[a] [1]]"),
    },
    {
      name: "a $deleteFromPrimitiveList key without a field",
      patch: { metadata: { $deleteFromPrimitiveList: ["a"] } },
      want: bad("invalid patch format of primitive list"),
    },
    {
      name: "a $setElementOrder key without a field",
      patch: { metadata: { $setElementOrder: ["a"] } },
      want: bad("invalid patch format of setElementOrder list"),
    },
    {
      name: "a deletion list on a list of structs without a merge key",
      patch: { spec: { "$deleteFromPrimitiveList/tolerations": [{ key: "k" }] } },
      original: podSpec({ tolerations: [{ key: "k" }] }),
      want: failure("cannot merge lists without merge key for struct"),
    },
  ])("$name", ({ patch, want, original }) => {
    const base = original ?? { ...live, metadata: { name: "p", finalizers: ["a"] } };
    expect(statusOf(() => patchPod(base, patch))).toEqual(want);
  });

  it("a map of lists on both sides is refused (CertificateSigningRequest .spec.extra)", () => {
    const csr = { metadata: { name: "c" }, spec: { extra: { scopes: ["a"] } } };
    const run = () =>
      patchAs("certificates.k8s.io/v1/CertificateSigningRequest")(csr, { spec: { extra: { scopes: ["b"] } } });
    expect(statusOf(run)).toEqual(failure("merging an object in json but data type is not struct, instead is: map"));
  });

  it("lists of lists answer 422 as kube's generic server response", () => {
    const patch = { metadata: { finalizers: [["a"]] } };
    expect(statusOf(() => patchPod({ metadata: { name: "p", finalizers: [] } }, patch))).toEqual({
      code: 422,
      reason: "Invalid",
      message: "the server rejected our request due to an error in our request",
      causes: [{ reason: "UnexpectedServerResponse", message: "lists of lists are not supported" }],
    });
  });

  it("inputs on which kube's code panics answer 400", () => {
    const nested = { metadata: { "$setElementOrder/finalizers": [], finalizers: [["a"]] } };
    const leadingNull = { metadata: { finalizers: [null] } };
    const panicked = failure("the strategic merge patch cannot be applied to this object");
    expect(statusOf(() => patchPod({ metadata: { name: "p" } }, nested))).toEqual(panicked);
    expect(statusOf(() => patchPod({ metadata: { name: "p", finalizers: [] } }, leadingNull))).toEqual(panicked);
  });
});

describe("kubectl client-side apply patches", () => {
  // The live Deployment: what was applied before plus server defaults and an injected sidecar.
  const live = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: {
      name: "web",
      namespace: "default",
      annotations: {
        "deployment.kubernetes.io/revision": "1",
        "kubectl.kubernetes.io/last-applied-configuration": "{}",
      },
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "web" } },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: {
          containers: [
            {
              name: "web",
              image: "nginx:1.25",
              imagePullPolicy: "IfNotPresent",
              ports: [
                { containerPort: 80, protocol: "TCP" },
                { containerPort: 443, protocol: "TCP" },
              ],
              env: [{ name: "A", value: "1" }],
              terminationMessagePath: "/dev/termination-log",
            },
            { name: "proxy", image: "envoy:1" },
            { name: "log", image: "fluentd:1", imagePullPolicy: "IfNotPresent" },
          ],
          restartPolicy: "Always",
        },
      },
    },
  };

  it("applies a changed image, a removed port and an added env var", () => {
    // CreateThreeWayMergePatch for: image nginx:1.26, port 443 removed, env B added (proxy is server-only).
    const patch = {
      metadata: { annotations: { "kubectl.kubernetes.io/last-applied-configuration": '{"new":"config"}' } },
      spec: {
        template: {
          spec: {
            "$setElementOrder/containers": [{ name: "web" }, { name: "log" }],
            containers: [
              {
                "$setElementOrder/env": [{ name: "A" }, { name: "B" }],
                "$setElementOrder/ports": [{ containerPort: 80 }],
                env: [{ name: "B", value: "2" }],
                image: "nginx:1.26",
                name: "web",
                ports: [{ $patch: "delete", containerPort: 443 }],
              },
            ],
          },
        },
      },
    };
    const got = patchDeployment(live, patch) as typeof live;
    expect(got.metadata.annotations).toEqual({
      "deployment.kubernetes.io/revision": "1",
      "kubectl.kubernetes.io/last-applied-configuration": '{"new":"config"}',
    });
    expect(got.spec.template.spec.containers).toEqual([
      {
        name: "web",
        image: "nginx:1.26",
        imagePullPolicy: "IfNotPresent",
        ports: [{ containerPort: 80, protocol: "TCP" }],
        env: [
          { name: "A", value: "1" },
          { name: "B", value: "2" },
        ],
        terminationMessagePath: "/dev/termination-log",
      },
      { name: "proxy", image: "envoy:1" },
      { name: "log", image: "fluentd:1", imagePullPolicy: "IfNotPresent" },
    ]);
    expect(got.spec.strategy).toEqual(live.spec.strategy);
  });

  it("applies a switch to the Recreate strategy with its $retainKeys", () => {
    const patch = { spec: { strategy: { $retainKeys: ["type"], rollingUpdate: null, type: "Recreate" } } };
    expect((patchDeployment(live, patch) as typeof live).spec.strategy).toEqual({ type: "Recreate" });
  });

  it("applies a removed container", () => {
    const patch = {
      spec: {
        template: {
          spec: { "$setElementOrder/containers": [{ name: "web" }], containers: [{ $patch: "delete", name: "log" }] },
        },
      },
    };
    const got = patchDeployment(live, patch) as typeof live;
    expect(got.spec.template.spec.containers.map((c) => c.name)).toEqual(["web", "proxy"]);
  });

  it("applies a reordered list (only $setElementOrder changes)", () => {
    const patch = {
      spec: { template: { spec: { "$setElementOrder/containers": [{ name: "log" }, { name: "web" }] } } },
    };
    const got = patchDeployment(live, patch) as typeof live;
    expect(got.spec.template.spec.containers.map((c) => c.name)).toEqual(["proxy", "log", "web"]);
  });
});

describe("servesStrategicMergePatch", () => {
  it("is true for every built-in kind, markers or not, and false for others", () => {
    expect(servesStrategicMergePatch(fieldTable, "apps/v1/Deployment")).toBe(true);
    expect(servesStrategicMergePatch(fieldTable, "v1/ConfigMap")).toBe(true);
    expect(servesStrategicMergePatch(fieldTable, "example.com/v1/Widget")).toBe(false);
    expect(servesStrategicMergePatch(fieldTable, "toString")).toBe(false);
  });
});
