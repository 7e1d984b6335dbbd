// The field manager's steps around the core: where managedFields come from on an update, resetting them,
// untracked objects and their first apply, the cap on update managers, entry times, kubectl's hand-over
// from client-side apply, and the errors an apply request can meet.
import { describe, expect, it } from "vitest";
import {
  type ApplyContext,
  applyConfiguration,
  type FieldManagerContext,
  updateManagedFields,
} from "../../../runtime/apply/field-manager.js";
import { StatusError } from "../../../runtime/errors/status-error.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { appliedBy, runScript, stepTime, updatedBy, yamlObject } from "./run-script.js";
import { thing, thingSchema } from "./thing-schema.js";

const ctx: FieldManagerContext = { manager: "m", apiVersion: "example.com/v1", time: "2026-01-01T00:00:00Z" };
const applyCtx: ApplyContext = { ...ctx, force: false };

function managed(obj: KubeObject): Record<string, unknown>[] | undefined {
  return (obj.metadata as Record<string, unknown>).managedFields as Record<string, unknown>[] | undefined;
}

function stored(obj: KubeObject): KubeObject {
  return { ...obj, metadata: { ...(obj.metadata as Record<string, unknown>), uid: "uid-1" } };
}

function thrown(action: () => unknown): StatusError {
  try {
    action();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error("expected a StatusError");
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const applied = stored(applyConfiguration(thingSchema, undefined, yamlObject(thing("replicas: 1")), applyCtx));

describe("where an update's managers come from", () => {
  it("keeps the live entries when the request omits managedFields or sends an empty list", () => {
    for (const managedFields of [undefined, []]) {
      const next = yamlObject(
        thing("replicas: 1\nimage: x", managedFields === undefined ? "" : "  managedFields: []\n"),
      );
      const out = updateManagedFields(thingSchema, applied, next, { ...ctx, manager: "u" });
      expect(managed(out)?.map((e) => e.manager)).toEqual(["m", "u"]);
    }
  });

  it("stops tracking when the request sends one empty entry, and stays untracked on later updates", () => {
    const reset = updateManagedFields(
      thingSchema,
      applied,
      yamlObject(thing("replicas: 1", "  managedFields: [{}]\n")),
      ctx,
    );
    expect(managed(reset)).toBeUndefined();
    const later = updateManagedFields(thingSchema, stored(reset), yamlObject(thing("replicas: 3")), ctx);
    expect(managed(later)).toBeUndefined();
  });

  it("gives the writer what else a resetting request changes (the specification's point 11)", () => {
    const reset = updateManagedFields(
      thingSchema,
      applied,
      yamlObject(thing("replicas: 2", "  managedFields: [{}]\n")),
      ctx,
    );
    expect(reset.spec).toEqual({ replicas: 2 });
    expect(managed(reset)?.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      [ctx.manager, "Update", { "f:spec": { "f:replicas": {} } }],
    ]);
  });

  it("takes the request's own entries when it edits them", () => {
    const edited = yamlObject(
      thing(
        "replicas: 1",
        `  managedFields:\n  - {manager: other, operation: Update, apiVersion: example.com/v1, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}\n`,
      ),
    );
    const out = updateManagedFields(thingSchema, applied, edited, ctx);
    expect(managed(out)?.map((e) => e.manager)).toEqual(["other"]);
  });

  it("ignores entries sent through a subresource", () => {
    const edited = yamlObject(thing("replicas: 1", "  managedFields: [{}]\n"));
    const out = updateManagedFields(thingSchema, applied, edited, { ...ctx, subresource: "status" });
    expect(managed(out)?.map((e) => e.manager)).toEqual(["m"]);
  });

  it("falls back to the live entries when the request's cannot be read", () => {
    const bad = yamlObject(thing("replicas: 1", "  managedFields: [{manager: x, operation: Bogus}]\n"));
    const out = updateManagedFields(thingSchema, applied, bad, ctx);
    expect(managed(out)?.map((e) => e.operation)).toEqual(["Apply"]);
  });

  it("tracks a create but not the update of an object created untracked", () => {
    const untracked = stored(yamlObject(thing("replicas: 1")));
    const out = updateManagedFields(thingSchema, untracked, yamlObject(thing("replicas: 2")), ctx);
    expect(managed(out)).toBeUndefined();
    expect(managed(updateManagedFields(thingSchema, undefined, yamlObject(thing("replicas: 2")), ctx))).toHaveLength(1);
  });

  it("names an empty manager unknown", () => {
    const out = updateManagedFields(thingSchema, undefined, yamlObject(thing("replicas: 2")), { ...ctx, manager: "" });
    expect(managed(out)?.[0]?.manager).toBe("unknown");
  });
});

describe("apply to an untracked object", () => {
  it("gives its existing fields to before-first-apply, which the applier then conflicts with", () => {
    runScript(
      {
        schema: thingSchema,
        apiVersion: "example.com/v1",
        steps: [
          {
            op: "apply",
            manager: "a",
            object: thing("replicas: 2"),
            conflicts: ['conflict with "before-first-apply" using example.com/v1: .spec.replicas'],
          },
          {
            op: "apply",
            manager: "a",
            object: thing("image: x"),
            expectManaged: [
              appliedBy("a", "f:spec: {f:image: {}}"),
              updatedBy("before-first-apply", "f:spec: {f:replicas: {}}"),
            ],
          },
        ],
      },
      stored(yamlObject(thing("replicas: 1"))),
    );
  });
});

describe("entry times and the cap on update managers", () => {
  it("moves an entry's time only when its manager changed something", () => {
    const first = stored(
      updateManagedFields(thingSchema, undefined, yamlObject(thing("replicas: 1")), { ...ctx, time: stepTime(1) }),
    );
    const same = updateManagedFields(thingSchema, first, yamlObject(thing("replicas: 1")), {
      ...ctx,
      time: stepTime(2),
    });
    expect(managed(same)?.[0]?.time).toBe(stepTime(1));
    const noop = applyConfiguration(thingSchema, stored(same), yamlObject(thing("replicas: 1")), {
      ...applyCtx,
      manager: "a",
    });
    expect(managed(noop)?.find((e) => e.manager === "a")?.time).toBeUndefined();
  });

  it("merges the oldest update managers into ancient-changes beyond ten", () => {
    let live: KubeObject | undefined;
    for (let i = 0; i < 12; i++) {
      const labels = Object.fromEntries(Array.from({ length: i + 1 }, (_, j) => [`l${j}`, "v"]));
      const next = { apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "t", labels } };
      live = stored(updateManagedFields(thingSchema, live, next, { ...ctx, manager: `u${i}`, time: stepTime(i) }));
    }
    const names = managed(live as KubeObject)?.map((e) => e.manager);
    expect(names).toHaveLength(10);
    expect(names?.[0]).toBe("ancient-changes");
    const ancient = managed(live as KubeObject)?.[0];
    expect(ancient?.fieldsV1).toEqual({
      "f:metadata": { "f:labels": { ".": {}, "f:l0": {}, "f:l1": {}, "f:l2": {} } },
    });
    expect(ancient?.time).toBe(stepTime(2));
  });
});

describe("what an apply request may not do", () => {
  it("refuses managedFields in the configuration", () => {
    const e = thrown(() =>
      applyConfiguration(thingSchema, undefined, yamlObject(thing("replicas: 1", "  managedFields: []\n")), applyCtx),
    );
    expect([e.code, e.status.message]).toEqual([400, "metadata.managedFields must be nil"]);
  });

  it("refuses another version or kind", () => {
    const other = yamlObject(thing("replicas: 1").replace("example.com/v1", "example.com/v2"));
    expect(thrown(() => applyConfiguration(thingSchema, undefined, other, applyCtx)).status.message).toBe(
      "Incorrect version specified in apply patch. Specified patch version: example.com/v2, expected: example.com/v1",
    );
    const e = thrown(() => applyConfiguration(thingSchema, undefined, other, { ...applyCtx, kind: "Thing" }));
    expect([e.code, e.status.message]).toEqual([400, "invalid object type: example.com/v2, Kind=Thing"]);
  });

  it("answers a configuration that does not fit the schema with kube's words, as a 400 (kube: 500)", () => {
    const e = thrown(() =>
      applyConfiguration(
        thingSchema,
        undefined,
        yamlObject(thing("bogus: 1\nmapList: [{value: x}, {name: a}, {name: a}]")),
        applyCtx,
      ),
    );
    expect(e.code).toBe(400);
    expect(e.status.message).toBe(
      "failed to create typed patch object (/t; example.com/v1, Kind=Thing): errors:\n" +
        "  .spec.bogus: field not declared in schema\n" +
        '  .spec.mapList: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)\n' +
        '  .spec.mapList: duplicate entries for key [name="a"]',
    );
  });

  it("answers unreadable live managedFields with a 500", () => {
    const live = stored(
      yamlObject(thing("replicas: 1", "  managedFields: [{manager: x, operation: Apply, apiVersion: v1}]\n")),
    );
    const e = thrown(() => applyConfiguration(thingSchema, live, yamlObject(thing("replicas: 1")), applyCtx));
    expect([e.code, e.status.message]).toEqual([
      500,
      "failed to decode managed fields: missing fieldsType in managed fields entry 0",
    ]);
  });
});

describe("endpoints and subresources", () => {
  it("leaves reset fields unowned and names subresource writers in conflicts", () => {
    runScript({
      schema: thingSchema,
      apiVersion: "example.com/v1",
      steps: [
        {
          op: "apply",
          manager: "a",
          object: thing("replicas: 1", "status: {phase: Running}\n"),
          resetPaths: [["status"]],
          expectManaged: [appliedBy("a", "f:spec: {f:replicas: {}}")],
        },
        {
          op: "apply",
          manager: "ctl",
          subresource: "status",
          object: "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nstatus: {phase: Ready}",
          resetPaths: [["spec"]],
          expectManaged: [
            appliedBy("a", "f:spec: {f:replicas: {}}"),
            { manager: "ctl", operation: "Apply", subresource: "status", fields: "f:status: {f:phase: {}}" },
          ],
        },
        {
          op: "apply",
          manager: "other",
          subresource: "status",
          object: "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nstatus: {phase: Failed}",
          conflicts: ['conflict with "ctl" with subresource "status": .status.phase'],
        },
      ],
    });
  });

  it("changes none of its inputs", () => {
    const live = deepFreeze(structuredClone(applied));
    const config = deepFreeze(yamlObject(thing("replicas: 4\nsetList: [a]")));
    const out = applyConfiguration(thingSchema, live, config, { ...applyCtx, force: true, manager: "b" });
    expect(out.spec).toEqual({ replicas: 4, setList: ["a"] });
    const next = deepFreeze(yamlObject(thing("replicas: 5")));
    expect(updateManagedFields(thingSchema, live, next, ctx).spec).toEqual({ replicas: 5 });
  });
});

describe("kubectl taking over from client-side apply", () => {
  const lastApplied = JSON.stringify(yamlObject(thing("replicas: 1\nimage: x")));
  const clientSide = stored(
    updateManagedFields(
      thingSchema,
      undefined,
      yamlObject(
        thing(
          "replicas: 1\nimage: x",
          `  annotations: {kubectl.kubernetes.io/last-applied-configuration: '${lastApplied}'}\n`,
        ),
      ),
      { ...ctx, manager: "kubectl-client-side-apply" },
    ),
  );

  it("does not conflict over fields the annotation lists, and keeps the annotation current", () => {
    const config = yamlObject(thing("replicas: 2\nimage: x"));
    expect(() => applyConfiguration(thingSchema, clientSide, config, { ...applyCtx, manager: "other" })).toThrow(
      StatusError,
    );
    const out = applyConfiguration(thingSchema, clientSide, config, { ...applyCtx, manager: "kubectl" });
    expect(out.spec).toEqual({ replicas: 2, image: "x" });
    const annotation = (out.metadata as { annotations: Record<string, string> }).annotations[
      "kubectl.kubernetes.io/last-applied-configuration"
    ];
    expect(annotation).toBe(
      '{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"image":"x","replicas":2}}\n',
    );
  });
});
