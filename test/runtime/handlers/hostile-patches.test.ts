// Hostile PATCH bodies of every patch type against a ConfigMap, a Deployment and a custom resource whose
// spec keeps unknown fields: each answer is the one kube-apiserver v1.36.2 gave to the same request (sent to
// it with dryRun=All and recorded here, names normalized), except where noted: kube's 500s for a client's
// patch are kapi's 400s with kube's words, and kapi's objects nest at most 1000 deep where kube's nest up to
// 10000 (docs/patch.md). No answer is a 500, and the server keeps serving.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../../runtime/index.js";
import { eventually } from "../controllers/controller-harness.js";
import { openSpecDefinition } from "../crd/open-spec-definition.js";

const token = "hostile-patches-token";
const ns = "h2-hostile";
const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const things = `/apis/hostile.example.com/v1/namespaces/${ns}/things`;

const paths = {
  cm: `/api/v1/namespaces/${ns}/configmaps/cm1`,
  deploy: `/apis/apps/v1/namespaces/${ns}/deployments/d1`,
  cr: `${things}/t1`,
};

const contentTypes = {
  json: "application/json-patch+json",
  merge: "application/merge-patch+json",
  smp: "application/strategic-merge-patch+json",
  apply: "application/apply-patch+yaml",
};

type Target = keyof typeof paths;
type PatchType = keyof typeof contentTypes;

interface HostileCase {
  name: string;
  target: Target;
  type: PatchType;
  body: string | (() => string);
  /** Query parameters besides dryRun=All. */
  query?: string;
  /** Another object name than the target's. */
  objectName?: string;
  status: number;
  reason?: string;
  /** The whole message, or a pattern it matches. */
  message?: string | RegExp;
}

/** `{"a":{"a":…1…}}`, `n` objects deep. */
const nested = (n: number, leaf = "1") => `${'{"a":'.repeat(n)}${leaf}${"}".repeat(n)}`;
/** `[[…1…]]`, `n` lists deep. */
const listed = (n: number) => `${"[".repeat(n)}1${"]".repeat(n)}`;
const ops = (list: unknown[]) => JSON.stringify(list);

/** kube's 422 for a patched object its decoder refuses: the patched object (or patch) and the reason. */
function patchInvalid(reason: string, value = ".*"): RegExp {
  const escaped = reason.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^ "" is invalid: patch: Invalid value: "${value}": ${escaped}$`, "s");
}

const generic422 = "the server rejected our request due to an error in our request";
const configMapApply = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1"}}';

const jsonPatchCases: HostileCase[] = [
  { name: "a null body is no operations", target: "cm", type: "json", body: "null", status: 200 },
  {
    name: "a number",
    target: "cm",
    type: "json",
    body: "5",
    status: 400,
    reason: "BadRequest",
    message: "error decoding patch: json: cannot unmarshal number into Go value of type []handlers.jsonPatchOp",
  },
  {
    name: "an object instead of a list",
    target: "cr",
    type: "json",
    body: '{"op":"add"}',
    status: 400,
    reason: "BadRequest",
    message: "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp",
  },
  {
    name: "an op that is a number",
    target: "cm",
    type: "json",
    body: '[{"op":1,"path":"/a"}]',
    status: 400,
    reason: "BadRequest",
    message: "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string",
  },
  {
    name: "an unknown op",
    target: "cm",
    type: "json",
    body: '[{"op":"frob","path":"/metadata/labels"}]',
    status: 422,
    reason: "Invalid",
    message: generic422,
  },
  {
    name: "a missing path",
    target: "cr",
    type: "json",
    body: '[{"op":"add","value":1}]',
    status: 422,
    reason: "Invalid",
    message: generic422,
  },
  {
    name: "a path without its leading slash",
    target: "cm",
    type: "json",
    body: '[{"op":"add","path":"metadata/labels","value":{"a":"b"}}]',
    status: 200,
  },
  {
    name: "a ~2 escape",
    target: "cm",
    type: "json",
    body: '[{"op":"add","path":"/metadata/labels/a~2b","value":"x"}]',
    status: 422,
    reason: "Invalid",
    message: generic422,
  },
  {
    name: "- in the middle of a path",
    target: "cr",
    type: "json",
    body: ops([
      { op: "add", path: "/spec/l", value: ["a", "b"] },
      { op: "add", path: "/spec/l/-/x", value: "c" },
    ]),
    status: 422,
    reason: "Invalid",
    message: generic422,
  },
  {
    name: "index 01",
    target: "cr",
    type: "json",
    body: ops([
      { op: "add", path: "/spec/l", value: ["a", "b"] },
      { op: "replace", path: "/spec/l/01", value: "c" },
    ]),
    status: 200,
  },
  {
    name: "a negative index past the start",
    target: "cr",
    type: "json",
    body: ops([
      { op: "add", path: "/spec/l", value: ["a", "b"] },
      { op: "remove", path: "/spec/l/-3" },
    ]),
    status: 422,
    reason: "Invalid",
    message: generic422,
  },
  {
    name: "an index beyond int64",
    target: "cr",
    type: "json",
    body: ops([
      { op: "add", path: "/spec/l", value: ["a", "b"] },
      { op: "add", path: "/spec/l/99999999999999999999", value: "c" },
    ]),
    status: 422,
    reason: "Invalid",
    message: generic422,
  },
  {
    name: "a new name",
    target: "cm",
    type: "json",
    body: '[{"op":"replace","path":"/metadata/name","value":"other"}]',
    status: 400,
    reason: "BadRequest",
    message: "the name of the object (other) does not match the name on the URL (cm1)",
  },
  {
    name: "no name",
    target: "cr",
    type: "json",
    body: '[{"op":"remove","path":"/metadata/name"}]',
    status: 400,
    reason: "BadRequest",
    message: "the name of the object (t1 based on URL) was undeterminable: name must be provided",
  },
  {
    name: "an empty object for the whole document",
    target: "cm",
    type: "json",
    body: '[{"op":"replace","path":"","value":{}}]',
    status: 400,
    reason: "BadRequest",
    message: "the name of the object (cm1 based on URL) was undeterminable: name must be provided",
  },
  {
    name: "a list for the whole document",
    target: "cm",
    type: "json",
    body: '[{"op":"replace","path":"","value":[1]}]',
    status: 422,
    reason: "Invalid",
    message: patchInvalid(
      'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
      "\\[1\\]",
    ),
  },
  {
    name: "an apiVersion the kind does not have",
    target: "cm",
    type: "json",
    body: '[{"op":"replace","path":"/apiVersion","value":"v2"}]',
    status: 422,
    reason: "Invalid",
    message: patchInvalid(
      'no kind "ConfigMap" is registered for version "v2" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    ),
  },
  {
    // kube decodes the result as a Secret first and says `illegal base64 data at input byte 0`.
    name: "another kind",
    target: "cm",
    type: "json",
    body: '[{"op":"replace","path":"/kind","value":"Secret"}]',
    status: 422,
    reason: "Invalid",
    message: patchInvalid("converting (v1.Secret) to (core.ConfigMap): unknown conversion"),
  },
  {
    name: "another kind of custom resource",
    target: "cr",
    type: "json",
    body: '[{"op":"replace","path":"/kind","value":"Secret"}]',
    status: 422,
    reason: "Invalid",
    message: 'Secret.hostile.example.com "t1" is invalid: kind: Invalid value: "Secret": must be Thing',
  },
  {
    name: "another apiVersion of custom resource",
    target: "cr",
    type: "json",
    body: '[{"op":"replace","path":"/apiVersion","value":"v2"}]',
    status: 422,
    reason: "Invalid",
    message: 'Thing "t1" is invalid: apiVersion: Invalid value: "v2": must be hostile.example.com/v1',
  },
  {
    name: "a custom resource without kind",
    target: "cr",
    type: "json",
    body: '[{"op":"remove","path":"/kind"}]',
    status: 422,
    reason: "Invalid",
    message: /^ "" is invalid: patch: Invalid value: ".*": Object 'Kind' is missing in '\{"apiVersion":.*\}'$/s,
  },
  {
    name: "metadata that is a list",
    target: "cm",
    type: "json",
    body: '[{"op":"replace","path":"/metadata","value":[1]}]',
    status: 422,
    reason: "Invalid",
    message: patchInvalid("json: cannot unmarshal array into Go struct field ConfigMap.metadata of type v1.ObjectMeta"),
  },
  {
    name: "custom resource metadata that is a list",
    target: "cr",
    type: "json",
    body: '[{"op":"replace","path":"/metadata","value":[1]}]',
    status: 422,
    reason: "Invalid",
    message: patchInvalid("json: cannot unmarshal array into Go value of type v1.ObjectMeta"),
  },
  {
    name: "10001 operations",
    target: "cm",
    type: "json",
    body: () => ops(Array.from({ length: 10001 }, () => ({ op: "test", path: "/data/a", value: "1" }))),
    status: 413,
    reason: "RequestEntityTooLarge",
    message: "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001",
  },
  {
    name: "10000 operations",
    target: "cm",
    type: "json",
    body: () => ops(Array.from({ length: 10000 }, () => ({ op: "test", path: "/data/a", value: "1" }))),
    status: 200,
  },
  {
    name: "copies adding up past 3 MiB",
    target: "cr",
    type: "json",
    body: () =>
      ops([
        { op: "add", path: "/spec/big", value: "x".repeat(1000) },
        ...Array.from({ length: 3200 }, (_, i) => ({ op: "copy", from: "/spec/big", path: `/spec/c${i}` })),
      ]),
    status: 422,
    reason: "Invalid",
    message: generic422,
  },
  {
    name: "a list copied into itself, doubling",
    target: "cr",
    type: "json",
    body: () =>
      ops([
        { op: "add", path: "/spec/d", value: [1, 2, 3, 4, 5, 6, 7, 8] },
        ...Array.from({ length: 30 }, () => ({ op: "copy", from: "/spec/d", path: "/spec/d/-" })),
      ]),
    status: 422,
    reason: "Invalid",
    message: generic422,
  },
  {
    name: "a path of 100000 segments",
    target: "cr",
    type: "json",
    body: () => `[{"op":"add","path":"${"/a".repeat(100000)}","value":1}]`,
    status: 422,
    reason: "Invalid",
    message: generic422,
  },
  {
    name: "a from of 100000 segments",
    target: "cr",
    type: "json",
    body: () => `[{"op":"move","from":"${"/a".repeat(100000)}","path":"/spec/y"}]`,
    status: 422,
    reason: "Invalid",
    message: generic422,
  },
  {
    name: "a value nested 9999 deep",
    target: "cm",
    type: "json",
    body: () => `[{"op":"add","path":"/data/x","value":${nested(9999)}}]`,
    status: 400,
    reason: "BadRequest",
    message: "error decoding patch: invalid character '{' exceeded max depth",
  },
  {
    name: "a test of equal values 500 deep",
    target: "cr",
    type: "json",
    body: () =>
      `[{"op":"add","path":"/spec/x","value":${listed(500)}},{"op":"test","path":"/spec/x","value":${listed(500)}}]`,
    status: 200,
  },
  {
    // The result nests past 10000 lists, as kube says after decoding it.
    name: "a deep list copied to its own depth",
    target: "cr",
    type: "json",
    body: () =>
      `[{"op":"add","path":"/spec/x","value":${listed(5000)}},{"op":"copy","from":"/spec/x","path":"/spec/x${"/0".repeat(4999)}"}]`,
    status: 422,
    reason: "Invalid",
    message: patchInvalid("couldn't get version/kind; json parse error: invalid character '[' exceeded max depth"),
  },
  {
    // kube keeps objects up to 10000 deep and answers this 200.
    name: "a result nested past kapi's 1000",
    target: "cr",
    type: "json",
    body: () => `[{"op":"add","path":"/spec/x","value":${nested(1000)}}]`,
    status: 422,
    reason: "Invalid",
    message: patchInvalid("couldn't get version/kind; json parse error: invalid character '{' exceeded max depth"),
  },
  {
    // kube answers 500 with these words where the managedFields, a few levels deeper than the fields they
    // own, pass its limit of 10000 (an object 9994 deep).
    name: "a result whose managedFields would nest past kapi's 1000",
    target: "cr",
    type: "json",
    body: () => `[{"op":"add","path":"/spec/x","value":${nested(994)}}]`,
    status: 400,
    reason: "BadRequest",
    message: "invalid character '{' exceeded max depth",
  },
];

const mergePatchCases: HostileCase[] = [
  {
    name: "null",
    target: "cm",
    type: "merge",
    body: "null",
    status: 400,
    reason: "BadRequest",
    message: "Invalid JSON Patch",
  },
  {
    name: "a list",
    target: "cr",
    type: "merge",
    body: "[1]",
    status: 400,
    reason: "BadRequest",
    message: "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}",
  },
  {
    name: "metadata made a list",
    target: "cm",
    type: "merge",
    body: '{"metadata":[1]}',
    status: 422,
    reason: "Invalid",
    message: patchInvalid("json: cannot unmarshal array into Go struct field ConfigMap.metadata of type v1.ObjectMeta"),
  },
  {
    name: "metadata removed",
    target: "cm",
    type: "merge",
    body: '{"metadata":null}',
    status: 400,
    reason: "BadRequest",
    message: "the name of the object (cm1 based on URL) was undeterminable: name must be provided",
  },
  {
    name: "labels nested",
    target: "cm",
    type: "merge",
    body: '{"metadata":{"labels":{"a":{"b":"c"}}}}',
    status: 422,
    reason: "Invalid",
    message: patchInvalid(
      "json: cannot unmarshal object into Go struct field ObjectMeta.metadata.labels of type string",
    ),
  },
  {
    name: "custom resource labels nested",
    target: "cr",
    type: "merge",
    body: '{"metadata":{"labels":{"a":{"b":"c"}}}}',
    status: 422,
    reason: "Invalid",
    message: patchInvalid("json: cannot unmarshal object into Go struct field ObjectMeta.labels of type string"),
  },
  {
    name: "an apiVersion that is a number",
    target: "cr",
    type: "merge",
    body: '{"apiVersion":5}',
    status: 422,
    reason: "Invalid",
    message: patchInvalid(
      "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string",
    ),
  },
  {
    name: "a custom resource's kind removed",
    target: "cr",
    type: "merge",
    body: '{"kind":null}',
    status: 422,
    reason: "Invalid",
    message: /^ "" is invalid: patch: Invalid value: ".*": Object 'Kind' is missing in '.*'$/s,
  },
  {
    // kube answers this one 500.
    name: "a custom resource's apiVersion removed",
    target: "cr",
    type: "merge",
    body: '{"apiVersion":null}',
    status: 400,
    reason: "BadRequest",
    message: "Object 'apiVersion' is missing in 'object has no apiVersion field'",
  },
  {
    name: "another namespace",
    target: "cm",
    type: "merge",
    body: '{"metadata":{"namespace":"other"}}',
    status: 400,
    reason: "BadRequest",
    message: "the namespace of the provided object does not match the namespace sent on the request",
  },
  {
    name: "a body nested 10001 deep",
    target: "cr",
    type: "merge",
    body: () => `{"spec":{"x":${nested(9999)}}}`,
    status: 400,
    reason: "BadRequest",
    message: "error decoding patch: invalid character '{' exceeded max depth",
  },
  {
    // kube answers 200 (in 15 seconds); the nulls are removed by a walk that keeps its own stack.
    name: "nulls nested 9990 deep",
    target: "cr",
    type: "merge",
    body: () => `{"spec":{"x":${nested(9990, "null")}}}`,
    status: 422,
    reason: "Invalid",
    message: patchInvalid("couldn't get version/kind; json parse error: invalid character '{' exceeded max depth"),
  },
];

const listBody = (spec: Record<string, unknown>) => JSON.stringify({ spec: { template: { spec } } });

const strategicCases: HostileCase[] = [
  { name: "null", target: "deploy", type: "smp", body: "null", status: 200 },
  {
    name: "a number",
    target: "deploy",
    type: "smp",
    body: "5",
    status: 400,
    reason: "BadRequest",
    message: "json: cannot unmarshal number into Go value of type map[string]interface {}",
  },
  {
    // kube answers 500 with these words.
    name: "an unknown $patch",
    target: "deploy",
    type: "smp",
    body: '{"spec":{"$patch":"frob"}}',
    status: 400,
    reason: "BadRequest",
    message: "unknown patch type: frob in map: map[$patch:frob]",
  },
  {
    name: "$patch: delete of the whole object",
    target: "deploy",
    type: "smp",
    body: '{"$patch":"delete"}',
    status: 400,
    reason: "BadRequest",
    message: "the name of the object (d1 based on URL) was undeterminable: name must be provided",
  },
  {
    name: "$retainKeys that is not a list",
    target: "deploy",
    type: "smp",
    body: '{"spec":{"strategy":{"$retainKeys":"type","type":"Recreate"}}}',
    status: 400,
    reason: "BadRequest",
    message: "invalid patch format of retainKeys",
  },
  {
    // kube's code panics and drops the connection.
    name: "$retainKeys of maps",
    target: "deploy",
    type: "smp",
    body: '{"spec":{"strategy":{"$retainKeys":[{"a":1}],"type":"Recreate"}}}',
    status: 400,
    reason: "BadRequest",
    message: "the strategic merge patch cannot be applied to this object",
  },
  {
    name: "$setElementOrder without a field",
    target: "deploy",
    type: "smp",
    body: listBody({ $setElementOrder: [{ name: "c" }] }),
    status: 400,
    reason: "BadRequest",
    message: "invalid patch format of setElementOrder list",
  },
  {
    // kube answers 500 with these words.
    name: "$setElementOrder that is a string",
    target: "deploy",
    type: "smp",
    body: listBody({ "$setElementOrder/containers": "c" }),
    status: 400,
    reason: "BadRequest",
    message: "expected a []interface {}, but received a string",
  },
  {
    name: "$deleteFromPrimitiveList without a field",
    target: "deploy",
    type: "smp",
    body: '{"metadata":{"$deleteFromPrimitiveList":["a"]}}',
    status: 400,
    reason: "BadRequest",
    message: "invalid patch format of primitive list",
  },
  {
    name: "$deleteFromPrimitiveList that is a string",
    target: "deploy",
    type: "smp",
    body: '{"metadata":{"$deleteFromPrimitiveList/finalizers":"a"}}',
    status: 200,
  },
  {
    // kube answers 500 with these words.
    name: "a list of lists for containers",
    target: "deploy",
    type: "smp",
    body: listBody({ containers: [[1]] }),
    status: 400,
    reason: "BadRequest",
    message: /^list element types are not identical: \[\[map\[.*name:c.*\]\] \[\[1\]\]\]$/,
  },
  {
    // kube's reason is its converter's, `cannot restore struct from: slice`.
    name: "metadata made a list",
    target: "deploy",
    type: "smp",
    body: '{"metadata":[1]}',
    status: 422,
    reason: "Invalid",
    message: patchInvalid(
      "json: cannot unmarshal array into Go struct field Deployment.metadata of type v1.ObjectMeta",
      "map\\[metadata:\\[1\\]\\]",
    ),
  },
  { name: "another kind, ignored", target: "deploy", type: "smp", body: '{"kind":"StatefulSet"}', status: 200 },
  {
    name: "a body nested 10001 deep",
    target: "deploy",
    type: "smp",
    body: () => `{"metadata":{"annotations":${nested(9999)}}}`,
    status: 400,
    reason: "BadRequest",
    message: "invalid character '{' exceeded max depth",
  },
  {
    // kube refuses the annotation's type (422) before it would store the object.
    name: "a value nested past kapi's 1000",
    target: "deploy",
    type: "smp",
    body: () => `{"metadata":{"annotations":${nested(1000)}}}`,
    status: 400,
    reason: "BadRequest",
    message: "invalid character '{' exceeded max depth",
  },
  {
    // kube gives up after 34 seconds with 504; kapi orders the items by index.
    name: "a $setElementOrder of 5000 containers",
    target: "deploy",
    type: "smp",
    body: () =>
      listBody({
        "$setElementOrder/containers": Array.from({ length: 5000 }, (_, i) => ({ name: `c${i}` })),
        containers: Array.from({ length: 5000 }, (_, i) => ({ name: `c${i}`, image: "x" })),
      }),
    status: 200,
  },
];

const applyCases: HostileCase[] = [
  {
    name: "a field manager of 129 bytes",
    target: "cm",
    type: "apply",
    body: configMapApply,
    query: `fieldManager=${"m".repeat(129)}`,
    status: 422,
    reason: "Invalid",
    message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
  },
  {
    name: "a field manager of 128 bytes",
    target: "cm",
    type: "apply",
    body: configMapApply,
    query: `fieldManager=${"m".repeat(128)}`,
    status: 200,
  },
  {
    name: "force=yes",
    target: "cm",
    type: "apply",
    body: configMapApply,
    query: "fieldManager=m&force=yes",
    status: 200,
  },
  {
    name: "a number",
    target: "cm",
    type: "apply",
    body: "5",
    query: "fieldManager=m",
    status: 400,
    reason: "BadRequest",
    message:
      "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal number into Go value of type map[string]interface {}",
  },
  {
    name: "a YAML list",
    target: "cr",
    type: "apply",
    body: "- a\n- b\n",
    query: "fieldManager=m",
    status: 400,
    reason: "BadRequest",
    message:
      "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}",
  },
  {
    // kube's go-yaml says `line 1: did not find expected node content`.
    name: "YAML that does not parse",
    target: "cm",
    type: "apply",
    body: '{"a":',
    query: "fieldManager=m",
    status: 400,
    reason: "BadRequest",
    message: /^error decoding YAML: error converting YAML to JSON: yaml: line 1: /,
  },
  {
    name: "null",
    target: "cm",
    type: "apply",
    body: "null",
    query: "fieldManager=m",
    status: 400,
    reason: "BadRequest",
    message: "invalid object type: /, Kind=",
  },
  {
    // kube answers 500, and prints the list as `&{[1]}`.
    name: "metadata that is a list",
    target: "cm",
    type: "apply",
    body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":[1]}',
    query: "fieldManager=m",
    status: 400,
    reason: "BadRequest",
    message: "failed to create typed patch object (/; /v1, Kind=ConfigMap): .metadata: expected map, got list",
  },
  {
    // kube answers 500, under every fieldValidation.
    name: "an undeclared field under Strict",
    target: "cm",
    type: "apply",
    body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1"},"foo":1}',
    query: "fieldManager=m&fieldValidation=Strict",
    status: 400,
    reason: "BadRequest",
    message: "failed to create typed patch object (/cm1; /v1, Kind=ConfigMap): .foo: field not declared in schema",
  },
  {
    name: "a repeated key under Strict",
    target: "cm",
    type: "apply",
    body: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1}\ndata: {a: "1"}\ndata: {b: "2"}\n',
    query: "fieldManager=m&fieldValidation=Strict",
    status: 400,
    reason: "BadRequest",
    message:
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 5: key "data" already set in map',
  },
  {
    name: "a new object without a name",
    target: "cr",
    type: "apply",
    objectName: "absent",
    body: '{"apiVersion":"hostile.example.com/v1","kind":"Thing","metadata":{},"spec":{"a":2}}',
    query: "fieldManager=m",
    status: 400,
    reason: "BadRequest",
    message: "the name of the object (absent based on URL) was undeterminable: name must be provided",
  },
];

describe("hostile patches", () => {
  let server: RunningServer;

  async function call(method: string, path: string, body: string, contentType: string) {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      body,
    });
    return { status: res.status, body: (await res.json()) as { message?: string; reason?: string } };
  }

  beforeAll(async () => {
    server = await startServer({ insecure: true, adminToken: token, controllers: false });
    const json = "application/json";
    await call("POST", "/api/v1/namespaces", JSON.stringify({ metadata: { name: ns } }), json);
    const definition = openSpecDefinition("hostile.example.com", "things", "Thing");
    expect((await call("POST", crds, JSON.stringify(definition), json)).status).toBe(201);
    await eventually(async () => {
      const res = await fetch(server.url + things, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    });
    const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm1" }, data: { a: "1" } };
    const container = { name: "c", image: "nginx", env: [{ name: "A", value: "1" }] };
    const labels = { app: "d1" };
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d1" },
      spec: {
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [container] } },
      },
    };
    const thing = { apiVersion: "hostile.example.com/v1", kind: "Thing", metadata: { name: "t1" }, spec: { a: 1 } };
    for (const [path, obj] of [
      [paths.cm, configMap],
      [paths.deploy, deployment],
      [paths.cr, thing],
    ] as const) {
      expect((await call("POST", path.replace(/\/[^/]+$/, ""), JSON.stringify(obj), json)).status).toBe(201);
    }
  });
  afterAll(() => server.close());

  const table = [
    ...jsonPatchCases.map((c) => ({ ...c, group: "JSON patch" })),
    ...mergePatchCases.map((c) => ({ ...c, group: "merge patch" })),
    ...strategicCases.map((c) => ({ ...c, group: "strategic merge patch" })),
    ...applyCases.map((c) => ({ ...c, group: "apply" })),
  ];

  it.each(table)("$group: $name → $status", async (c) => {
    const path = c.objectName === undefined ? paths[c.target] : paths[c.target].replace(/[^/]+$/, c.objectName);
    const query = ["dryRun=All", ...(c.query === undefined ? [] : [c.query])].join("&");
    const body = typeof c.body === "function" ? c.body() : c.body;
    const res = await call("PATCH", `${path}?${query}`, body, contentTypes[c.type]);
    expect(res.status).toBe(c.status);
    if (c.reason !== undefined) expect(res.body.reason).toBe(c.reason);
    if (typeof c.message === "string") expect(res.body.message).toBe(c.message);
    else if (c.message !== undefined) expect(res.body.message).toMatch(c.message);
  });

  it("still serves after them all", async () => {
    const res = await fetch(server.url + paths.cm, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
  });
});
