// kubectl against kapi's sample group samples.kapi.dev (schemas/samples.kapi.dev/, docs/new-api-group.md): a group
// defined only by schema files, enabled with runtimeConfig, served like a built-in one: discovery, printer columns,
// CEL rules with their messages, both versions through the hand-written conversion, the scale and status
// subresources, and protobuf in both directions.
import { request } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { decodeProtobufObject } from "../../runtime/codecs/protobuf/protobuf-body.js";
import { encodeProtobuf } from "../../runtime/codecs/protobuf/protobuf-response.js";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

const protobuf = "application/vnd.kubernetes.protobuf";
const widgets = "/apis/samples.kapi.dev/v1/namespaces/samples/widgets";

const widget = (name: string, spec: string) => `apiVersion: samples.kapi.dev/v1
kind: Widget
metadata:
  name: ${name}
  namespace: samples
spec:
${spec}`;

interface Answer {
  status: number;
  type: string;
  body: Buffer;
}

describe.skipIf(!haveKubectl)("kubectl with the schema-defined group samples.kapi.dev", () => {
  let s: KubectlSession;

  const apply = (name: string, text: string) => s.kubectl("apply", "-f", s.file(name, text));
  const applyError = (name: string, text: string) => s.kubectlError("apply", "-f", s.file(name, text));
  const getJson = async (...args: string[]) => JSON.parse(await s.kubectl("get", ...args, "-o", "json"));

  /** A raw request with the admin token, trusting the server's CA, in any content type. */
  const raw = (method: string, path: string, headers: Record<string, string>, body?: Buffer) =>
    new Promise<Answer>((resolve, reject) => {
      const ca = /certificate-authority-data: (\S+)/.exec(s.server.kubeconfig)?.[1] ?? "";
      const req = request(
        `${s.server.url}${path}`,
        {
          method,
          ca: Buffer.from(ca, "base64"),
          headers: { authorization: `Bearer ${s.server.adminToken}`, ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              type: String(res.headers["content-type"] ?? ""),
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  beforeAll(async () => {
    s = await startKubectlSession({
      runtimeConfig: { "samples.kapi.dev/v1": true, "samples.kapi.dev/v1alpha1": true },
    });
    await s.kubectl("create", "namespace", "samples");
  });
  afterAll(() => s?.close());

  it("lists the group in discovery with its short name and categories", async () => {
    const resources = await s.kubectl("api-resources", "--api-group=samples.kapi.dev", "-o", "wide");
    expect(resources).toMatch(/^widgets\s+wdg\s+samples\.kapi\.dev\/v1\s+true\s+Widget\s+.*\s+all,samples$/m);
    const versions = (await s.kubectl("api-versions")).split("\n");
    expect(versions).toEqual(expect.arrayContaining(["samples.kapi.dev/v1", "samples.kapi.dev/v1alpha1"]));
  });

  it("applies a widget, defaults it and prints its columns by name, short name and category", async () => {
    const spec =
      "  replicas: 3\n  maxReplicas: 5\n  appearance: { color: red }\n  ports: [ { name: http, port: 80 } ]\n";
    expect(await apply("w1.yaml", widget("w1", spec))).toBe("widget.samples.kapi.dev/w1 created\n");
    const got = await getJson("widget", "w1", "-n", "samples");
    expect(got.spec).toEqual({
      replicas: 3,
      maxReplicas: 5,
      appearance: { color: "red", size: "medium" },
      ports: [{ name: "http", port: 80, protocol: "TCP" }],
    });

    const table = await s.kubectl("get", "widgets", "-n", "samples");
    expect(table).toMatch(/^NAME\s+REPLICAS\s+READY\s+COLOR\s+AGE\n/);
    expect(table).toMatch(/^w1\s+3\s+\S*\s*red\s+\d+s\n$/m);
    expect(await s.kubectl("get", "wdg", "-n", "samples", "-o", "wide")).toMatch(
      /^NAME\s+REPLICAS\s+READY\s+COLOR\s+SIZE\s+AGE\nw1\s+3\s+\S*\s*red\s+medium\s+\d+s\n$/,
    );
    expect(await s.kubectl("get", "samples", "-n", "samples", "-o", "name")).toBe("widget.samples.kapi.dev/w1\n");
    expect(
      await s.kubectl("get", "widgets", "-n", "samples", "--field-selector=spec.appearance.color=red", "-o", "name"),
    ).toBe("widget.samples.kapi.dev/w1\n");
  });

  it("rejects objects breaking a CEL rule with the rule's message", async () => {
    const tooMany = await applyError("bad.yaml", widget("bad", "  replicas: 9\n  maxReplicas: 2\n"));
    expect(tooMany).toContain('The Widget "bad" is invalid');
    expect(tooMany).toContain("spec.replicas: Invalid value");
    expect(tooMany).toContain("replicas must not exceed maxReplicas");

    const udp = await applyError("udp.yaml", widget("udp", "  ports: [ { name: udp-dns, port: 53 } ]\n"));
    expect(udp).toContain("spec.ports[0].protocol: Invalid value");
    expect(udp).toContain("port udp-dns is named for UDP but uses TCP");

    const clash = "  ports: [ { name: a, port: 80 }, { name: b, port: 80 } ]\n";
    expect(await applyError("clash.yaml", widget("clash", clash))).toContain(
      "each port number and protocol may be used once",
    );

    // A transition rule: oldSelf is the stored value.
    const resized = "  replicas: 3\n  maxReplicas: 5\n  appearance: { color: red, size: large }\n";
    expect(await applyError("w1-large.yaml", widget("w1", resized))).toContain(
      'spec.appearance.size: Invalid value: "large": size is immutable',
    );
    expect(await s.kubectlError("get", "widget", "bad", "-n", "samples")).toContain(
      'widgets.samples.kapi.dev "bad" not found',
    );
  });

  it("reads a v1 widget as v1alpha1 and a v1alpha1 widget as v1 through the hand-written conversion", async () => {
    const old = await getJson("widgets.v1alpha1.samples.kapi.dev", "w1", "-n", "samples");
    expect(old.apiVersion).toBe("samples.kapi.dev/v1alpha1");
    expect(old.spec).toEqual({
      replicas: 3,
      maxReplicas: 5,
      color: "red",
      size: "medium",
      ports: [{ name: "http", port: 80, protocol: "TCP" }],
    });
    expect(await s.kubectl("get", "widgets.v1alpha1.samples.kapi.dev", "-n", "samples")).toMatch(
      /^NAME\s+REPLICAS\s+READY\s+COLOR\s+AGE\nw1\s+3\s+\S*\s*red\s+\d+s\n$/,
    );

    const alpha = `apiVersion: samples.kapi.dev/v1alpha1
kind: Widget
metadata:
  name: w2
  namespace: samples
spec:
  color: green
  size: small
  tags: [ a, b ]
`;
    expect(await apply("w2.yaml", alpha)).toBe("widget.samples.kapi.dev/w2 created\n");
    const current = await getJson("widgets.v1.samples.kapi.dev", "w2", "-n", "samples");
    expect(current.apiVersion).toBe("samples.kapi.dev/v1");
    expect(current.spec).toEqual({ replicas: 1, appearance: { color: "green", size: "small" }, tags: ["a", "b"] });
  });

  it("scales through the scale subresource and writes status through the status subresource", async () => {
    expect(await s.kubectl("scale", "widget", "w1", "-n", "samples", "--replicas=4")).toBe(
      "widget.samples.kapi.dev/w1 scaled\n",
    );
    expect((await getJson("widget", "w1", "-n", "samples")).spec.replicas).toBe(4);
    // The object's CEL rules still apply to a write through /scale.
    expect(await s.kubectlError("scale", "widget", "w1", "-n", "samples", "--replicas=6")).toContain(
      "replicas must not exceed maxReplicas",
    );

    const status = JSON.stringify({ status: { replicas: 4, readyReplicas: 2, selector: "app=w1" } });
    await s.kubectl("patch", "widget", "w1", "-n", "samples", "--subresource=status", "--type=merge", "-p", status);
    const scale = JSON.parse(
      await s.kubectl("get", "--raw", "/apis/samples.kapi.dev/v1/namespaces/samples/widgets/w1/scale"),
    );
    expect(scale).toMatchObject({
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      spec: { replicas: 4 },
      status: { replicas: 4, selector: "app=w1" },
    });
    expect(await s.kubectl("get", "widget", "w1", "-n", "samples")).toMatch(/^w1\s+4\s+2\s+red\s+\d+s\n$/m);
  });

  it("creates from a protobuf body and answers in protobuf, equal to what kubectl prints as YAML", async () => {
    const body = encodeProtobuf({
      apiVersion: "samples.kapi.dev/v1",
      kind: "Widget",
      metadata: { name: "pb", namespace: "samples" },
      spec: { replicas: 2, appearance: { color: "blue" }, settings: { mode: "fast" }, tags: ["x"] },
    });
    const created = await raw("POST", widgets, { "content-type": protobuf, accept: protobuf }, body);
    expect(created.status).toBe(201);
    expect(created.type).toBe(protobuf);

    const yaml = parse(await s.kubectl("get", "widget", "pb", "-n", "samples", "-o", "yaml", "--show-managed-fields"));
    expect(yaml.spec).toEqual({
      replicas: 2,
      appearance: { color: "blue", size: "medium" },
      settings: { mode: "fast" },
      tags: ["x"],
    });
    expect(decodeProtobufObject(created.body)).toEqual(yaml);

    const got = await raw("GET", `${widgets}/pb`, { accept: `${protobuf},application/json` });
    expect(got.type).toBe(protobuf);
    expect(decodeProtobufObject(got.body)).toEqual(yaml);
  });
});
