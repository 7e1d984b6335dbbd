import { describe, expect, it } from "vitest";
import { checkFields, kindFields, pruneUnknownFields } from "../../../runtime/codecs/unknown-fields.js";
import { StatusError } from "../../../runtime/errors/status-error.js";

type Obj = Record<string, unknown>;

function deployment(containers: Obj[]): Obj {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", labels: { app: "web", "example.com/tier": "front" } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: { containers } },
    },
  };
}

/** The 400 message a prune fails with. */
function fatal(value: Obj, group: string, version: string, kind: string): string {
  try {
    pruneUnknownFields(value, group, version, kind);
  } catch (e) {
    if (e instanceof StatusError && e.code === 400) return e.message;
    throw e;
  }
  throw new Error("pruned without error");
}

describe("pruneUnknownFields", () => {
  it("removes a field unknown deep in a Deployment's pod template and reports its path", () => {
    const obj = deployment([
      { name: "a", image: "nginx" },
      { name: "b", image: "nginx", imagePolicy: "Always" },
    ]);
    expect(pruneUnknownFields(obj, "apps", "v1", "Deployment")).toEqual([
      "spec.template.spec.containers[1].imagePolicy",
    ]);
    expect(obj).toEqual(
      deployment([
        { name: "a", image: "nginx" },
        { name: "b", image: "nginx" },
      ]),
    );
  });

  it("reports top-level and metadata fields and keeps going after each", () => {
    const obj: Obj = { kind: "ConfigMap", metadata: { name: "c", nmae: "x" }, data: { a: "1" }, extra: true };
    expect(pruneUnknownFields(obj, "", "v1", "ConfigMap")).toEqual(["metadata.nmae", "extra"]);
    expect(obj).toEqual({ kind: "ConfigMap", metadata: { name: "c" }, data: { a: "1" } });
  });

  it("takes map keys as data: ConfigMap data and labels are never unknown", () => {
    const obj: Obj = {
      metadata: { name: "c", labels: { "any.thing/at-all": "x" }, annotations: { spec: "y" } },
      data: { "weird key": "v", spec: "w" },
      binaryData: { blob: "aGVsbG8=" },
    };
    expect(pruneUnknownFields(obj, "", "v1", "ConfigMap")).toEqual([]);
    expect(obj.data).toEqual({ "weird key": "v", spec: "w" });
  });

  it("keeps whatever a free-form field holds (RawExtension, JSON) and looks no further", () => {
    const revision: Obj = { metadata: { name: "r" }, data: { anything: { goes: [1, "two"] } }, revision: 1 };
    expect(pruneUnknownFields(revision, "apps", "v1", "ControllerRevision")).toEqual([]);
    expect(revision.data).toEqual({ anything: { goes: [1, "two"] } });
  });

  it("follows maps of structs, preserved values and struct without fields in a CRD", () => {
    const schema = {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      default: { free: { form: true } },
      properties: { spec: { type: "object", bogus: 1 } },
    };
    const crd: Obj = {
      metadata: { name: "widgets.example.com" },
      spec: {
        group: "example.com",
        names: { kind: "Widget", plural: "widgets" },
        scope: "Namespaced",
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: { openAPIV3Schema: schema },
            subresources: { status: { on: 1 } },
          },
        ],
      },
    };
    expect(pruneUnknownFields(crd, "apiextensions.k8s.io", "v1", "CustomResourceDefinition")).toEqual([
      "spec.versions[0].schema.openAPIV3Schema.properties.spec.bogus",
      "spec.versions[0].subresources.status.on",
    ]);
    expect(schema.default).toEqual({ free: { form: true } });
  });

  it("reports an unknown field once however often it comes, and nothing for a kind it does not know", () => {
    const items = Array.from({ length: 3 }, () => ({ name: "a", image: "i", bad: 1 }));
    expect(pruneUnknownFields(deployment(items), "apps", "v1", "Deployment")).toEqual([
      "spec.template.spec.containers[0].bad",
      "spec.template.spec.containers[1].bad",
      "spec.template.spec.containers[2].bad",
    ]);
    const unknownKind: Obj = { anything: 1 };
    expect(pruneUnknownFields(unknownKind, "example.com", "v1", "Nothing")).toEqual([]);
    expect(unknownKind).toEqual({ anything: 1 });
  });

  it("accepts null anywhere, as Go's decoder does", () => {
    const obj = deployment([{ name: "a", image: null, ports: null }]);
    (obj.spec as Obj).replicas = null;
    expect(pruneUnknownFields(obj, "apps", "v1", "Deployment")).toEqual([]);
  });
});

describe("pruneUnknownFields: values of the wrong type are kube's fatal 400", () => {
  const prefix = 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal';

  it("names the innermost struct, the struct field path without indexes, and the Go type", () => {
    const obj = deployment([{ name: "a", env: [{ name: "X", value: 1 }] }]);
    expect(fatal(obj, "apps", "v1", "Deployment")).toBe(
      `${prefix} number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string`,
    );
  });

  it("words structs, lists and maps with their Go types", () => {
    expect(fatal({ spec: "x" }, "apps", "v1", "Deployment")).toBe(
      `${prefix} string into Go struct field Deployment.spec of type v1.DeploymentSpec`,
    );
    expect(fatal({ spec: { template: { spec: { containers: {} } } } }, "apps", "v1", "Deployment")).toBe(
      `${prefix} object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container`,
    );
    expect(fatal({ metadata: { labels: ["a"] } }, "apps", "v1", "Deployment")).toBe(
      `${prefix} array into Go struct field ObjectMeta.metadata.labels of type map[string]string`,
    );
    expect(fatal({ metadata: { labels: { a: true } } }, "apps", "v1", "Deployment")).toBe(
      `${prefix} bool into Go struct field ObjectMeta.metadata.labels of type string`,
    );
  });

  it("refuses fractions and out-of-range numbers for integers", () => {
    expect(fatal({ spec: { replicas: 1.5 } }, "apps", "v1", "Deployment")).toBe(
      `${prefix} number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32`,
    );
    expect(fatal({ spec: { replicas: 2 ** 31 } }, "apps", "v1", "Deployment")).toBe(
      `${prefix} number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32`,
    );
    expect(fatal({ spec: { replicas: "2" } }, "apps", "v1", "Deployment")).toBe(
      `${prefix} string into Go struct field DeploymentSpec.spec.replicas of type int32`,
    );
  });

  it("decodes an int-or-string as an int32 unless it is a string", () => {
    const service = (targetPort: unknown): Obj => ({ spec: { ports: [{ port: 80, targetPort }] } });
    expect(pruneUnknownFields(service("http"), "", "v1", "Service")).toEqual([]);
    expect(pruneUnknownFields(service(8080), "", "v1", "Service")).toEqual([]);
    expect(fatal(service(true), "", "v1", "Service")).toBe(
      'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
    );
  });

  it("answers a []byte that is not base64 with Go's decoder offset", () => {
    const secret = (value: string): Obj => ({ kind: "Secret", metadata: { name: "s" }, data: { key: value } });
    expect(pruneUnknownFields(secret("aGVsbG8="), "", "v1", "Secret")).toEqual([]);
    expect(pruneUnknownFields(secret("aGVs\nbG8="), "", "v1", "Secret")).toEqual([]);
    const offsets: [string, number][] = [
      ["hello world", 5],
      ["aGVsbG8", 4],
      ["aGVsbA=", 7],
      ["aGVsbG8=x", 8],
      ["=abc", 0],
      ["ab=c", 2],
    ];
    for (const [value, offset] of offsets) {
      expect(fatal(secret(value), "", "v1", "Secret")).toBe(
        `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte ${offset}`,
      );
    }
  });

  it("takes the kind and version it names from the body, defaulted from the endpoint", () => {
    expect(fatal({ apiVersion: "apps/v1beta2", spec: 1 }, "apps", "v1", "Deployment")).toMatch(
      /^Deployment in version "v1beta2" cannot be handled as a Deployment: /,
    );
  });

  it("lets a fatal error win over unknown fields", () => {
    expect(fatal({ bogus: 1, spec: { replicas: "x" } }, "apps", "v1", "Deployment")).toContain("spec.replicas");
  });
});

describe("checkFields", () => {
  it("words problems as kube's strict decoding errors, deduplicated", () => {
    const n = kindFields("apps", "v1", "Deployment");
    if (n === undefined) throw new Error("no Deployment in the field table");
    const obj = { metadata: { name: "a", 'a"b': 1 }, spec: {}, bogus: 1 };
    expect(checkFields(obj, n).problems).toEqual(['unknown field "metadata.a\\"b"', 'unknown field "bogus"']);
  });

  it("stops listing problems at 100, as sigs.k8s.io/json does", () => {
    const n = kindFields("", "v1", "ConfigMap") as number;
    const obj = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`f${i}`, i]));
    const check = checkFields(obj, n);
    expect(check.problems).toHaveLength(100);
    expect(check.unknown).toHaveLength(150);
    expect(obj).toEqual({});
  });
});

describe("pruneUnknownFields: quantities parse as kube's decoder parses them", () => {
  const pod = (cpu: unknown): Obj => ({ spec: { containers: [{ name: "a", resources: { limits: { cpu } } }] } });
  const prefix = 'Pod in version "v1" cannot be handled as a Pod: ';

  it("accepts numbers and quantity strings", () => {
    for (const cpu of ["500m", "1", "1.5", "2Gi", "1e3", "-1", "+.5", "0", 0.5, 2]) {
      expect(pruneUnknownFields(pod(cpu), "", "v1", "Pod")).toEqual([]);
    }
  });

  it("refuses the rest with Quantity's errors", () => {
    const formatWrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    for (const cpu of ["1 core", "", "1gi", true, {}]) {
      expect(fatal(pod(cpu), "", "v1", "Pod")).toBe(`${prefix}${formatWrong}`);
    }
    for (const cpu of ["1mm", "1e", "1Ki5"]) {
      expect(fatal(pod(cpu), "", "v1", "Pod")).toBe(`${prefix}unable to parse quantity's suffix`);
    }
  });
});
