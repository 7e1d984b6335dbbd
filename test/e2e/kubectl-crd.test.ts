// CustomResourceDefinitions end to end with kubectl: a definition applied and waited for, custom resources with
// their printer columns, short names and categories, a CEL rule's message, the status and scale subresources,
// explain from the published OpenAPI, server-side apply merging a map list of two managers, strategic merge
// patch refused, pruning and strict field validation, defaults, a deprecated version's warning, selectable
// fields, and deleting the definition taking its resources and objects with it.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

const fixtures = join(import.meta.dirname, "fixtures", "crd");
const fixture = (name: string) => join(fixtures, name);

const crontab = (name: string, spec: string) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
${spec}`;

describe.skipIf(!haveKubectl)("CustomResourceDefinitions with kubectl", () => {
  let s: KubectlSession;
  const apply = (name: string, text: string, ...flags: string[]) =>
    s.kubectl("apply", "-f", s.file(name, text), ...flags);
  const json = async (...args: string[]) => JSON.parse(await s.kubectl("get", ...args, "-o", "json"));

  beforeAll(async () => {
    s = await startKubectlSession({ controllers: false });
    await s.kubectl("apply", "-f", fixture("crontab-crd.yaml"));
  }, 60_000);

  afterAll(async () => {
    await s?.close();
  });

  it("waits for the definition to be established", async () => {
    expect(
      await s.kubectl("wait", "--for", "condition=established", "--timeout=10s", "crd/crontabs.stable.example.com"),
    ).toBe("customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n");
    const crd = await json("crd", "crontabs.stable.example.com");
    expect(crd.status.acceptedNames).toEqual({
      plural: "crontabs",
      singular: "crontab",
      kind: "CronTab",
      listKind: "CronTabList",
      shortNames: ["ct"],
      categories: ["all"],
    });
    expect(crd.status.storedVersions).toEqual(["v1"]);
  });

  it("applies custom resources and prints the definition's columns", async () => {
    expect(await s.kubectl("apply", "-f", fixture("crontab.yaml"))).toBe(
      "crontab.stable.example.com/nightly created\n",
    );
    expect(await s.kubectl("get", "crontabs")).toBe("NAME      SPEC        REPLICAS\nnightly   0 0 * * *   2\n");
    expect(await s.kubectl("get", "crontabs", "-o", "wide")).toBe(
      "NAME      SPEC        REPLICAS   IMAGE\nnightly   0 0 * * *   2          backup:1.0\n",
    );
  });

  it("resolves short names and the all category", async () => {
    expect(await s.kubectl("get", "ct", "nightly", "-o", "name")).toBe("crontab.stable.example.com/nightly\n");
    expect(await s.kubectl("get", "all", "-o", "name")).toContain("crontab.stable.example.com/nightly\n");
    expect(await s.kubectl("api-resources", "--api-group=stable.example.com")).toBe(
      [
        "NAME       SHORTNAMES   APIVERSION              NAMESPACED   KIND",
        "crontabs   ct           stable.example.com/v1   true         CronTab",
        "",
      ].join("\n"),
    );
  });

  it("applies the schema's defaults", async () => {
    const obj = await json("crontab", "nightly");
    expect(obj.spec).toEqual({
      cronSpec: "0 0 * * *",
      image: "backup:1.0",
      replicas: 2,
      color: "blue",
      minReplicas: 0,
    });
  });

  it("refuses an object failing a CEL rule with the rule's message", async () => {
    const bad = s.file("bad.yaml", crontab("bad", "  cronSpec: '* * * * *'\n  replicas: 1\n  minReplicas: 3\n"));
    expect(await s.kubectlError("create", "-f", bad)).toBe(
      'The CronTab "bad" is invalid: spec: Invalid value: replicas must not be less than minReplicas\n',
    );
  });

  it("writes status through the status subresource only", async () => {
    await s.kubectl(
      "patch",
      "crontab",
      "nightly",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"status":{"replicas":2,"labelSelector":"app=nightly","phase":"Running"}}',
    );
    // A write to the main resource keeps the stored status.
    await s.kubectl("patch", "crontab", "nightly", "--type=merge", "-p", '{"status":{"phase":"Lost"}}');
    const obj = await json("crontab", "nightly");
    expect(obj.status).toEqual({ replicas: 2, labelSelector: "app=nightly", phase: "Running" });
    expect(obj.metadata.generation).toBe(1);
  });

  it("scales through the scale subresource", async () => {
    expect(await s.kubectl("scale", "crontab", "nightly", "--replicas=4")).toBe(
      "crontab.stable.example.com/nightly scaled\n",
    );
    const scale = JSON.parse(
      await s.kubectl("get", "--raw", "/apis/stable.example.com/v1/namespaces/default/crontabs/nightly/scale"),
    );
    expect(scale).toMatchObject({
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      spec: { replicas: 4 },
      status: { replicas: 2, selector: "app=nightly" },
    });
    const obj = await json("crontab", "nightly");
    expect(obj.spec.replicas).toBe(4);
    expect(obj.metadata.generation).toBe(2);
  });

  it("explains the custom kind from its OpenAPI schema", async () => {
    expect(await s.kubectl("explain", "crontabs.spec")).toBe(
      [
        "GROUP:      stable.example.com",
        "KIND:       CronTab",
        "VERSION:    v1",
        "",
        "FIELD: spec <Object>",
        "",
        "",
        "DESCRIPTION:",
        "    The desired schedule.",
        "    ",
        "FIELDS:",
        "  color\t<string>",
        "    <no description>",
        "",
        "  cronSpec\t<string>",
        "    A cron expression.",
        "",
        "  image\t<string>",
        "    <no description>",
        "",
        "  minReplicas\t<integer>",
        "    <no description>",
        "",
        "  ports\t<[]Object>",
        "    <no description>",
        "",
        "  replicas\t<integer>",
        "    <no description>",
        "",
        "",
        "",
      ].join("\n"),
    );
    expect(await s.kubectl("explain", "ct.spec.ports", "--recursive")).toContain("  name\t<string> -required-\n");
    // apiVersion, kind and metadata carry the descriptions kube-apiserver publishes for every custom kind.
    const top = await s.kubectl("explain", "crontabs");
    expect(top).toContain(
      "  apiVersion\t<string>\n    APIVersion defines the versioned schema of this representation of an object.",
    );
    expect(top).toContain("  kind\t<string>\n    Kind is a string value representing the REST resource this object");
    expect(top).toContain("  metadata\t<ObjectMeta>\n    Standard object's metadata. More info:");
  });

  it("merges a map list of two server-side appliers", async () => {
    await apply(
      "alice.yaml",
      crontab("ports", "  cronSpec: '1 * * * *'\n  ports:\n    - name: http\n      port: 80\n"),
      "--server-side",
      "--field-manager=alice",
    );
    await apply(
      "bob.yaml",
      crontab("ports", "  ports:\n    - name: https\n      port: 443\n"),
      "--server-side",
      "--field-manager=bob",
    );
    const obj = await json("crontab", "ports", "--show-managed-fields");
    expect(obj.spec.ports).toEqual([
      { name: "http", port: 80 },
      { name: "https", port: 443 },
    ]);
    const owned = Object.fromEntries(
      (obj.metadata.managedFields as { manager: string; fieldsV1: { "f:spec": Record<string, unknown> } }[]).map(
        (entry) => [entry.manager, Object.keys(entry.fieldsV1["f:spec"]["f:ports"] as object)],
      ),
    );
    expect(owned).toEqual({ alice: ['k:{"name":"http"}'], bob: ['k:{"name":"https"}'] });
    // Alice letting go of her entry removes only hers.
    await apply("alice.yaml", crontab("ports", "  cronSpec: '1 * * * *'\n"), "--server-side", "--field-manager=alice");
    expect((await json("crontab", "ports")).spec.ports).toEqual([{ name: "https", port: 443 }]);
  });

  it("refuses strategic merge patch with 415", async () => {
    expect(
      await s.kubectlError("patch", "crontab", "nightly", "--type=strategic", "-p", '{"spec":{"image":"backup:2.0"}}'),
    ).toBe(
      "error: application/strategic-merge-patch+json is not supported by stable.example.com/v1, Kind=CronTab: " +
        "the body of the request was in an unknown format - accepted media types include: " +
        "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml\n",
    );
  });

  it("prunes unknown fields and refuses them under --validate=strict", async () => {
    const text = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: unknown
  bogus: 1
spec:
  cronSpec: '2 * * * *'
  extra: field
`;
    const path = s.file("unknown.yaml", text);
    expect(await s.kubectlError("create", "-f", path, "--validate=strict")).toBe(
      `Error from server (BadRequest): error when creating "${path}": CronTab in version "v1" cannot be handled as a CronTab: ` +
        'strict decoding error: unknown field "metadata.bogus", unknown field "spec.extra"\n',
    );
    const warned = await s.kubectlWith({}, "create", "-f", path, "--validate=warn");
    expect(warned.stderr).toBe('Warning: unknown field "metadata.bogus"\nWarning: unknown field "spec.extra"\n');
    expect((await json("crontab", "unknown")).spec).toEqual({
      cronSpec: "2 * * * *",
      color: "blue",
      replicas: 1,
      minReplicas: 0,
    });
  });

  it("selects by a selectable field", async () => {
    await s.kubectl("patch", "crontab", "ports", "--type=merge", "-p", '{"spec":{"color":"red"}}');
    expect(await s.kubectl("get", "crontabs", "--field-selector", "spec.color=red", "-o", "name")).toBe(
      "crontab.stable.example.com/ports\n",
    );
    expect(await s.kubectl("get", "crontabs", "--field-selector", "spec.color!=red", "-o", "name")).toBe(
      "crontab.stable.example.com/nightly\ncrontab.stable.example.com/unknown\n",
    );
  });

  it("prints a deprecated version's warning", async () => {
    await s.kubectl("apply", "-f", fixture("widget-crd.yaml"));
    await s.kubectl("wait", "--for", "condition=established", "--timeout=10s", "crd/widgets.versions.example.com");
    const warning = "Warning: versions.example.com/v1beta1 Widget is deprecated; use versions.example.com/v1\n";
    const widget = s.file(
      "widget.yaml",
      "apiVersion: versions.example.com/v1beta1\nkind: Widget\nmetadata:\n  name: w1\nsize: 3\n",
    );
    const created = await s.kubectlWith({}, "create", "-f", widget);
    expect(created).toEqual({ stdout: "widget.versions.example.com/w1 created\n", stderr: warning });
    const got = await s.kubectlWith({}, "get", "widgets.v1beta1.versions.example.com", "w1", "-o", "name");
    expect(got).toEqual({ stdout: "widget.versions.example.com/w1\n", stderr: warning });
    const listed = await s.kubectlWith({}, "get", "widgets.v1beta1.versions.example.com", "-o", "name");
    expect(listed).toEqual({ stdout: "widget.versions.example.com/w1\n", stderr: warning });
    // The stored object keeps what the preserving schema allows, read at the storage version without a warning.
    expect(await s.kubectlWith({}, "get", "widgets.v1.versions.example.com", "w1", "-o", "jsonpath={.size}")).toEqual({
      stdout: "3",
      stderr: "",
    });
  });

  it("removes the resource type and its objects when the definition is deleted", async () => {
    expect(await s.kubectl("delete", "crd", "crontabs.stable.example.com")).toBe(
      'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n',
    );
    expect(await s.kubectl("api-resources", "--api-group=stable.example.com")).not.toContain("crontabs");
    expect(await s.kubectlError("get", "crontabs")).toBe(
      'error: the server doesn\'t have a resource type "crontabs"\n',
    );
    expect(await s.kubectl("get", "crd", "-o", "name")).toBe(
      "customresourcedefinition.apiextensions.k8s.io/widgets.versions.example.com\n",
    );
    // Defined again, the type serves no object of the old one.
    await s.kubectl("apply", "-f", fixture("crontab-crd.yaml"));
    await s.kubectl("wait", "--for", "condition=established", "--timeout=10s", "crd/crontabs.stable.example.com");
    expect(await s.kubectlWith({}, "get", "crontabs", "-A")).toEqual({ stdout: "", stderr: "No resources found\n" });
  });
});
