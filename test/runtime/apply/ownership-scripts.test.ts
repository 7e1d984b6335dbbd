// The field-ownership state table of the spec (§3), one script per row, on the small Thing kind.
import { describe, it } from "vitest";
import { appliedBy, runScript } from "./run-script.js";
import { thing, thingSchema } from "./thing-schema.js";

const base = { schema: thingSchema, apiVersion: "example.com/v1" };

describe("field ownership", () => {
  it("a different value applied by another manager without force conflicts and changes nothing", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("replicas: 1") },
        {
          op: "apply",
          manager: "b",
          object: thing("replicas: 2"),
          conflicts: ['conflict with "a": .spec.replicas'],
        },
        {
          op: "apply",
          manager: "a",
          object: thing("replicas: 1"),
          expectObject: thing("replicas: 1"),
          expectManaged: [
            { manager: "a", operation: "Apply", apiVersion: "example.com/v1", fields: "f:spec: {f:replicas: {}}" },
          ],
        },
      ],
    });
  });

  it("a forced apply takes the field: the value is overwritten and the field leaves the other entry", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("replicas: 1\nimage: x") },
        {
          op: "force-apply",
          manager: "b",
          object: thing("replicas: 2"),
          expectObject: thing("replicas: 2\nimage: x"),
          expectManaged: [appliedBy("a", "f:spec: {f:image: {}}"), appliedBy("b", "f:spec: {f:replicas: {}}")],
        },
      ],
    });
  });

  it("applying the live value shares the field", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("replicas: 1") },
        {
          op: "apply",
          manager: "b",
          object: thing("replicas: 1"),
          expectObject: thing("replicas: 1"),
          // The apply changed nothing, so kube gives b's entry no time, which sorts it first.
          expectManaged: [
            appliedBy("b", "f:spec: {f:replicas: {}}"),
            { manager: "a", operation: "Apply", time: "2026-01-01T00:00:01Z", fields: "f:spec: {f:replicas: {}}" },
          ],
        },
      ],
    });
  });

  it("a sharer changing a shared field by apply conflicts with the other sharers", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("replicas: 1") },
        { op: "apply", manager: "b", object: thing("replicas: 1") },
        { op: "apply", manager: "c", object: thing("replicas: 1") },
        {
          op: "apply",
          manager: "a",
          object: thing("replicas: 3"),
          conflicts: ['conflict with "b": .spec.replicas', 'conflict with "c": .spec.replicas'],
        },
      ],
    });
  });

  it("a sharer omitting a shared field leaves it to the others, value unchanged", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("replicas: 1\nimage: x") },
        { op: "apply", manager: "b", object: thing("replicas: 1") },
        {
          op: "apply",
          manager: "a",
          object: thing("image: x"),
          expectObject: thing("replicas: 1\nimage: x"),
          expectManaged: [appliedBy("b", "f:spec: {f:replicas: {}}"), appliedBy("a", "f:spec: {f:image: {}}")],
        },
      ],
    });
  });

  it("the last owner omitting a field removes it", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("replicas: 1\nimage: x") },
        {
          op: "apply",
          manager: "a",
          object: thing("image: x"),
          expectObject: thing("image: x"),
          expectManaged: [appliedBy("a", "f:spec: {f:image: {}}")],
        },
      ],
    });
  });

  it("an update changing a managed field takes it without conflict", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("replicas: 1\nimage: x") },
        {
          op: "update",
          manager: "kubectl-edit",
          object: thing("replicas: 5\nimage: x"),
          expectObject: thing("replicas: 5\nimage: x"),
          expectManaged: [
            appliedBy("a", "f:spec: {f:image: {}}"),
            {
              manager: "kubectl-edit",
              operation: "Update",
              apiVersion: "example.com/v1",
              fields: "f:spec: {f:replicas: {}}",
            },
          ],
        },
        // The applier now conflicts with the updater, named with its version.
        {
          op: "apply",
          manager: "a",
          object: thing("replicas: 1\nimage: x"),
          conflicts: ['conflict with "kubectl-edit" using example.com/v1: .spec.replicas'],
        },
      ],
    });
  });

  it("a manager whose fields were all taken disappears", () => {
    runScript({
      ...base,
      steps: [
        { op: "update", manager: "temp", object: thing("replicas: 1") },
        { op: "apply", manager: "a", object: thing("image: x") },
        {
          op: "force-apply",
          manager: "a",
          object: thing("replicas: 2\nimage: x"),
          expectManaged: [appliedBy("a", "f:spec: {f:image: {}, f:replicas: {}}")],
        },
      ],
    });
  });

  it("managers hand a field over: both apply the same value, then one omits it", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "old", object: thing("replicas: 3") },
        { op: "apply", manager: "new", object: thing("replicas: 3") },
        {
          op: "apply",
          manager: "old",
          object: thing("image: x"),
          expectObject: thing("replicas: 3\nimage: x"),
          expectManaged: [appliedBy("new", "f:spec: {f:replicas: {}}"), appliedBy("old", "f:spec: {f:image: {}}")],
        },
        { op: "apply", manager: "new", object: thing("replicas: 4") },
      ],
    });
  });

  it("an update removing a field takes it from every manager", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("replicas: 1\nimage: x") },
        {
          op: "update",
          manager: "u",
          object: thing("image: x"),
          expectManaged: [appliedBy("a", "f:spec: {f:image: {}}")],
        },
      ],
    });
  });

  it("an applier omitting a field an updater took over leaves it to the updater (kube's ownership transfer)", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("replicas: 3\nimage: x") },
        { op: "update", manager: "controller", object: thing("replicas: 4\nimage: x") },
        { op: "apply", manager: "a", object: thing("image: x"), expectObject: thing("replicas: 4\nimage: x") },
      ],
    });
  });

  it("an applier removing a list item removes it even when an updater set a field inside it", () => {
    runScript({
      ...base,
      steps: [
        { op: "apply", manager: "a", object: thing("mapList: [{name: one, value: '1'}]") },
        { op: "update", manager: "controller", object: thing("mapList: [{name: one, value: '1', other: o}]") },
        {
          op: "apply",
          manager: "a",
          object: thing("mapList: [{name: two}]"),
          expectObject: thing("mapList: [{name: two}]"),
          expectManaged: [appliedBy("a", `f:spec: {f:mapList: {'k:{"name":"two"}': {.: {}, f:name: {}}}}`)],
        },
      ],
    });
  });
});
