import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, strategyOf, updated, updateErrors } from "./write-path.js";

const Namespace: Kind = ["", "v1", "Namespace"];

describe("namespace strategy", () => {
  it("is Active, finalized by kubernetes and labelled with its name on create", () => {
    const ns = created(Namespace, { metadata: { name: "team-a" }, status: { phase: "Terminating" } });
    expect(ns).toMatchObject({
      metadata: { labels: { "kubernetes.io/metadata.name": "team-a" } },
      spec: { finalizers: ["kubernetes"] },
      status: { phase: "Active" },
    });
    expect(created(Namespace, { metadata: { name: "b" }, spec: { finalizers: ["example.com/x"] } }).spec).toEqual({
      finalizers: ["example.com/x", "kubernetes"],
    });
  });

  it("checks finalizer names on the list's path", () => {
    expect(createErrors(Namespace, { metadata: { name: "a" }, spec: { finalizers: ["cleanup"] } })).toEqual([
      'spec.finalizers: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it("changes spec.finalizers only through finalize", () => {
    const old = created(Namespace, { metadata: { name: "a" } });
    const next = structuredClone(old);
    (next.spec as { finalizers: string[] }).finalizers = [];
    expect((updated(Namespace, structuredClone(next), old).spec as { finalizers: string[] }).finalizers).toEqual([
      "kubernetes",
    ]);
    expect(
      (updated(Namespace, structuredClone(next), old, "finalize").spec as { finalizers?: string[] }).finalizers,
    ).toBeUndefined();
    (next.spec as { finalizers: string[] }).finalizers = ["bad"];
    expect(updateErrors(Namespace, next, old, "finalize")).toEqual([
      'spec.finalizers[0]: Invalid value: "bad": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it("ties the phase to the deletion timestamp on status updates", () => {
    const old = created(Namespace, { metadata: { name: "a" } });
    expect(
      updateErrors(Namespace, { ...structuredClone(old), status: { phase: "Terminating" } }, old, "status"),
    ).toEqual(["status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty"]);
    const deleting = { ...structuredClone(old), metadata: { name: "a", deletionTimestamp: "2024-01-01T00:00:00Z" } };
    expect(updateErrors(Namespace, { ...deleting, status: {} }, old, "status")).toEqual([
      "status.Phase: Invalid value: \"Active\": may only be 'Terminating' if `deletionTimestamp` is not empty",
    ]);
  });

  it("answers a delete with the namespace", () => {
    expect(strategyOf(Namespace).returnDeletedObject).toBe(true);
  });
});
