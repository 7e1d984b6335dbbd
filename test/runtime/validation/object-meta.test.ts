import { describe, expect, it } from "vitest";
import { formatFieldError } from "../../../runtime/errors/format-field-error.js";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../../runtime/validation/object-meta.js";

const namespaced = { namespaced: true, nameFormat: "dns-subdomain" } as const;

const messages = (meta: Record<string, unknown>, options: Parameters<typeof validateObjectMeta>[1] = namespaced) =>
  validateObjectMeta(meta, options).map(formatFieldError);

const updateMessages = (meta: Record<string, unknown>, old: Record<string, unknown>) =>
  validateObjectMetaUpdate(meta, old).map(formatFieldError);

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const namePartMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe("validateObjectMeta", () => {
  it("accepts a valid object", () => {
    expect(messages({ name: "web", namespace: "default", labels: { app: "web" }, finalizers: ["kubernetes"] })).toEqual(
      [],
    );
  });

  it("requires a name and checks it in the kind's format", () => {
    expect(messages({ namespace: "default" })).toEqual([
      "metadata.name: Required value: name or generateName is required",
    ]);
    expect(messages({ name: "Web", namespace: "default" })).toEqual([
      `metadata.name: Invalid value: "Web": ${subdomainMsg}`,
    ]);
    expect(messages({ name: "a.b" }, { namespaced: false, nameFormat: "dns-label" })).toEqual([
      `metadata.name: Invalid value: "a.b": ${labelMsg}`,
    ]);
  });

  it("lets generateName end in a dash, as the suffix follows", () => {
    expect(messages({ name: "web-x1z2a", generateName: "web-", namespace: "default" })).toEqual([]);
    expect(messages({ name: "web-x1z2a", generateName: "Web-", namespace: "default" })).toEqual([
      `metadata.generateName: Invalid value: "Web-": ${subdomainMsg}`,
    ]);
  });

  it("requires or forbids the namespace by scope", () => {
    expect(messages({ name: "a" })).toEqual(["metadata.namespace: Required value"]);
    expect(messages({ name: "a", namespace: "Bad" })).toEqual([
      `metadata.namespace: Invalid value: "Bad": ${labelMsg}`,
    ]);
    expect(messages({ name: "a", namespace: "x" }, { namespaced: false, nameFormat: "dns-subdomain" })).toEqual([
      "metadata.namespace: Forbidden: not allowed on this type",
    ]);
  });

  it("checks label keys and values on the map's path", () => {
    expect(messages({ name: "a", namespace: "d", labels: { "bad key": "ok", app: "-x" } })).toEqual([
      `metadata.labels: Invalid value: "bad key": ${namePartMsg}`,
      `metadata.labels: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ]);
  });

  it("checks annotation keys in any case and their total size", () => {
    expect(messages({ name: "a", namespace: "d", annotations: { "Example.com/Key": "v" } })).toEqual([]);
    expect(messages({ name: "a", namespace: "d", annotations: { "a/b/c": "v" } })).toHaveLength(1);
    expect(messages({ name: "a", namespace: "d", annotations: { big: "x".repeat(256 * 1024) } })).toEqual([
      "metadata.annotations: Too long: may not be more than 262144 bytes",
    ]);
  });

  it("checks owner references without an index, and one controller at most", () => {
    const ref = { apiVersion: "apps/v1", kind: "ReplicaSet", name: "rs", uid: "1", controller: true };
    expect(messages({ name: "a", namespace: "d", ownerReferences: [ref] })).toEqual([]);
    expect(
      messages({ name: "a", namespace: "d", ownerReferences: [{ apiVersion: "apps/", kind: "", name: "", uid: "" }] }),
    ).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ]);
    const two = [ref, { ...ref, kind: "Deployment", name: "d", uid: "2" }];
    expect(messages({ name: "a", namespace: "d", ownerReferences: two })[0]).toMatch(
      /^metadata\.ownerReferences: Invalid value: .*: Only one reference can have Controller set to true\. Found "true" in references for ReplicaSet\/rs and Deployment\/d$/,
    );
    expect(
      messages({
        name: "a",
        namespace: "d",
        ownerReferences: [{ apiVersion: "v1", kind: "Event", name: "e", uid: "1" }],
      })[0],
    ).toMatch(/^metadata\.ownerReferences: Invalid value: .*: \/v1, Kind=Event is disallowed from being an owner$/);
  });

  it("checks finalizer names: qualified, and standard when unprefixed", () => {
    expect(messages({ name: "a", namespace: "d", finalizers: ["example.com/cleanup", "orphan"] })).toEqual([]);
    expect(messages({ name: "a", namespace: "d", finalizers: ["cleanup"] })).toEqual([
      'metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    ]);
    expect(messages({ name: "a", namespace: "d", finalizers: ["orphan", "foregroundDeletion"] })).toEqual([
      'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });

  it("rejects a negative generation", () => {
    expect(messages({ name: "a", namespace: "d", generation: -1 })).toEqual([
      "metadata.generation: Invalid value: -1: must be greater than or equal to 0",
    ]);
  });
});

describe("validateObjectMetaUpdate", () => {
  const old = { name: "a", namespace: "d", uid: "u1", generation: 2, creationTimestamp: "2024-01-01T00:00:00Z" };

  it("accepts an unchanged identity", () => {
    expect(updateMessages({ ...old, labels: { x: "y" } }, old)).toEqual([]);
  });

  it("keeps name, namespace and uid", () => {
    expect(updateMessages({ ...old, name: "b", namespace: "e", uid: "u2" }, old)).toEqual([
      'metadata.name: Invalid value: "b": field is immutable',
      'metadata.namespace: Invalid value: "e": field is immutable',
      'metadata.uid: Invalid value: "u2": field is immutable',
    ]);
  });

  it("does not let the generation go backwards", () => {
    expect(updateMessages({ ...old, generation: 1 }, old)).toEqual([
      "metadata.generation: Invalid value: 1: must not be decremented",
    ]);
  });

  it("keeps deletion fields and adds no finalizers once deleting", () => {
    const deleting = {
      ...old,
      deletionTimestamp: "2024-01-02T00:00:00Z",
      deletionGracePeriodSeconds: 30,
      finalizers: ["a/x"],
    };
    expect(updateMessages({ ...deleting, finalizers: ["a/x", "b/y", "a/z"] }, deleting)).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a/z", "b/y"}',
    ]);
    expect(updateMessages({ ...deleting, deletionGracePeriodSeconds: 0 }, deleting)).toEqual([
      "metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable",
    ]);
    expect(updateMessages({ ...deleting, finalizers: [] }, deleting)).toEqual([]);
  });

  it("compares timestamps at second precision", () => {
    expect(updateMessages({ ...old, creationTimestamp: "2024-01-01T00:00:00.000Z" }, old)).toEqual([]);
  });
});
