// ValidatingAdmissionPolicy and MutatingAdmissionPolicy validation over in-process requests. The expected
// messages and causes are kube-apiserver v1.36.2's answers to the same objects (POSTed with dryRun=All to
// the reference).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startServer } from "../../../runtime/index.js";

let server: InProcessServer;
beforeAll(async () => {
  server = await startServer({ listen: false, controllers: false });
});
afterAll(() => server.close());

type Kind = "ValidatingAdmissionPolicy" | "MutatingAdmissionPolicy";

interface Answer {
  status: number;
  body: { message?: string; details?: { causes?: { reason: string; field: string; message: string }[] } };
}

async function send(method: "POST" | "PUT", kind: Kind, object: Record<string, unknown>): Promise<Answer> {
  const resource = kind === "ValidatingAdmissionPolicy" ? "validatingadmissionpolicies" : "mutatingadmissionpolicies";
  const name = (object.metadata as { name: string }).name;
  const response = await server.request({
    method,
    path: `/apis/admissionregistration.k8s.io/v1/${resource}${method === "PUT" ? `/${name}` : ""}`,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ apiVersion: "admissionregistration.k8s.io/v1", kind, ...object }),
  });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

function create(kind: Kind, name: string, spec: unknown): Promise<Answer> {
  return send("POST", kind, { metadata: { name }, spec });
}

function causes(answer: Answer): string[] {
  return (answer.body.details?.causes ?? []).map((c) => `${c.reason} ${c.field}: ${c.message}`);
}

const configMapRules = {
  resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] }],
};

const v1Spec = {
  failurePolicy: "Maybe",
  paramKind: { apiVersion: "a/b/c", kind: "Bad_Kind" },
  matchConstraints: { matchPolicy: "Other", resourceRules: [] },
  matchConditions: [
    { name: "bad name!", expression: "params.x == 1" },
    { name: "bad name!", expression: "" },
    { name: "", expression: "1" },
  ],
  variables: [
    { name: "1x", expression: "object.x" },
    { name: "", expression: "  " },
    { name: "if", expression: "variables.nope" },
    { name: "ok", expression: "variables.if" },
  ],
  validations: [
    { expression: "", message: "  ", messageExpression: "  ", reason: "Nope" },
    { expression: "1", message: "a\nb", messageExpression: "1" },
    { expression: "params.a", messageExpression: "authorizer.path('x') == 'y' ? 'a' : 'b'" },
  ],
  auditAnnotations: [
    { key: "bad key!", valueExpression: "" },
    { key: "bad key!", valueExpression: "1" },
    { key: "ok", valueExpression: "  'x'  " },
  ],
};
const v1Message =
  "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"e-v1\" is invalid: [spec.failurePolicy: Unsupported value: \"Maybe\": supported values: \"Fail\", \"Ignore\", spec.paramKind.apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c, spec.paramKind.kind: Invalid value: \"Bad_Kind\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), spec.matchConstraints.matchPolicy: Unsupported value: \"Other\": supported values: \"Equivalent\", \"Exact\", spec.matchConstraints.resourceRules: Required value, spec.matchConditions[0].name: Invalid value: \"bad name!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.matchConditions[1].expression: Required value, spec.matchConditions[1].name: Invalid value: \"bad name!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.matchConditions[1].name: Duplicate value: \"bad name!\", spec.matchConditions[2].expression: Invalid value: \"1\": must evaluate to bool but got int, spec.matchConditions[2].name: Required value, spec.variables[0].name: Invalid value: \"1x\": must be a valid CEL identifier, spec.variables[1].name: Required value: name is not specified, spec.variables[1].expression: Required value: expression is not specified, spec.variables[2].name: Invalid value: \"if\": must be a valid CEL identifier, spec.variables[2].expression: Invalid value: \"variables.nope\": compilation failed: ERROR: <input>:1:10: undefined field 'nope'\n | variables.nope\n | .........^, spec.validations[0].expression: Required value: expression is not specified, spec.validations[0].messageExpression: Invalid value: \"  \": must be non-empty if specified, spec.validations[0].message: Invalid value: \"  \": must be non-empty if specified, spec.validations[0].reason: Unsupported value: \"Nope\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\", spec.validations[1].expression: Invalid value: \"1\": must evaluate to bool but got int, spec.validations[1].messageExpression: Invalid value: \"1\": must evaluate to string but got int, spec.validations[1].message: Invalid value: \"a\\nb\": must not contain line breaks, spec.validations[2].expression: Invalid value: \"params.a\": must evaluate to bool but got dyn, spec.validations[2].messageExpression: Invalid value: \"authorizer.path('x') == 'y' ? 'a' : 'b'\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.path('x') == 'y' ? 'a' : 'b'\n | ^\nERROR: <input>:1:22: found no matching overload for '_==_' applied to '(kubernetes.authorization.PathCheck, string)'\n | authorizer.path('x') == 'y' ? 'a' : 'b'\n | .....................^, spec.auditAnnotations[0].key: Invalid value: \"e-v1/bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.auditAnnotations[0].valueExpression: Required value: valueExpression is not specified, spec.auditAnnotations[1].key: Invalid value: \"e-v1/bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.auditAnnotations[1].valueExpression: Invalid value: \"1\": must evaluate to one of [string null_type] but got int, spec.auditAnnotations[1].key: Duplicate value: \"bad key!\"]";
const v1Causes = [
  'FieldValueNotSupported spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
  'FieldValueInvalid spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
  "FieldValueInvalid spec.paramKind.kind: Invalid value: \"Bad_Kind\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  'FieldValueNotSupported spec.matchConstraints.matchPolicy: Unsupported value: "Other": supported values: "Equivalent", "Exact"',
  "FieldValueRequired spec.matchConstraints.resourceRules: Required value",
  "FieldValueInvalid spec.matchConditions[0].name: Invalid value: \"bad name!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  "FieldValueRequired spec.matchConditions[1].expression: Required value",
  "FieldValueInvalid spec.matchConditions[1].name: Invalid value: \"bad name!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  'FieldValueDuplicate spec.matchConditions[1].name: Duplicate value: "bad name!"',
  'FieldValueInvalid spec.matchConditions[2].expression: Invalid value: "1": must evaluate to bool but got int',
  "FieldValueRequired spec.matchConditions[2].name: Required value",
  'FieldValueInvalid spec.variables[0].name: Invalid value: "1x": must be a valid CEL identifier',
  "FieldValueRequired spec.variables[1].name: Required value: name is not specified",
  "FieldValueRequired spec.variables[1].expression: Required value: expression is not specified",
  'FieldValueInvalid spec.variables[2].name: Invalid value: "if": must be a valid CEL identifier',
  "FieldValueInvalid spec.variables[2].expression: Invalid value: \"variables.nope\": compilation failed: ERROR: <input>:1:10: undefined field 'nope'\n | variables.nope\n | .........^",
  "FieldValueRequired spec.validations[0].expression: Required value: expression is not specified",
  'FieldValueInvalid spec.validations[0].messageExpression: Invalid value: "  ": must be non-empty if specified',
  'FieldValueInvalid spec.validations[0].message: Invalid value: "  ": must be non-empty if specified',
  'FieldValueNotSupported spec.validations[0].reason: Unsupported value: "Nope": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
  'FieldValueInvalid spec.validations[1].expression: Invalid value: "1": must evaluate to bool but got int',
  'FieldValueInvalid spec.validations[1].messageExpression: Invalid value: "1": must evaluate to string but got int',
  'FieldValueInvalid spec.validations[1].message: Invalid value: "a\\nb": must not contain line breaks',
  'FieldValueInvalid spec.validations[2].expression: Invalid value: "params.a": must evaluate to bool but got dyn',
  "FieldValueInvalid spec.validations[2].messageExpression: Invalid value: \"authorizer.path('x') == 'y' ? 'a' : 'b'\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.path('x') == 'y' ? 'a' : 'b'\n | ^\nERROR: <input>:1:22: found no matching overload for '_==_' applied to '(kubernetes.authorization.PathCheck, string)'\n | authorizer.path('x') == 'y' ? 'a' : 'b'\n | .....................^",
  "FieldValueInvalid spec.auditAnnotations[0].key: Invalid value: \"e-v1/bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  "FieldValueRequired spec.auditAnnotations[0].valueExpression: Required value: valueExpression is not specified",
  "FieldValueInvalid spec.auditAnnotations[1].key: Invalid value: \"e-v1/bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  'FieldValueInvalid spec.auditAnnotations[1].valueExpression: Invalid value: "1": must evaluate to one of [string null_type] but got int',
  'FieldValueDuplicate spec.auditAnnotations[1].key: Duplicate value: "bad key!"',
];

const v4Spec = {
  matchConstraints: {
    namespaceSelector: { matchLabels: { "bad key!": "x" } },
    resourceRules: [
      { apiGroups: ["", "*"], apiVersions: [], operations: ["NOPE"], resources: ["a/*", "a/b"], scope: "Weird" },
    ],
  },
  matchConditions: [{ name: "p", expression: "params == null" }],
  validations: [
    { expression: "variables.x", message: "line\n", messageExpression: "params.m" },
    {
      expression: "size(object.metadata.name) > 0",
      messageExpression: "string(object.metadata.name)",
      reason: "Forbidden",
    },
    { expression: "authorizer.path('/x').check('get').allowed()", message: " ok " },
  ],
  auditAnnotations: [
    { key: "", valueExpression: "null" },
    { key: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", valueExpression: "'a' + 1" },
  ],
};
const v4Message =
  "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"e-v4\" is invalid: [spec.matchConstraints.namespaceSelector.matchLabels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value: \"NOPE\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\", spec.matchConstraints.resourceRules[0].apiGroups: Invalid value: [\"\",\"*\"]: if '*' is present, must not specify other API groups, spec.matchConstraints.resourceRules[0].apiVersions: Required value, spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: \"a/b\": if 'a/*' is present, must not specify a/b, spec.matchConstraints.resourceRules[0].scope: Unsupported value: \"Weird\": supported values: \"*\", \"Cluster\", \"Namespaced\", spec.matchConditions[0].expression: Invalid value: \"params == null\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params == null\n | ^, spec.validations[0].expression: Invalid value: \"variables.x\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.x\n | ^, spec.validations[0].messageExpression: Invalid value: \"params.m\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.m\n | ^, spec.auditAnnotations[0].key: Invalid value: \"e-v4/\": name part must be non-empty, spec.auditAnnotations[0].key: Invalid value: \"e-v4/\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.auditAnnotations[1].key: Invalid value: \"e-v4/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\": name part must be no more than 63 bytes, spec.auditAnnotations[1].valueExpression: Invalid value: \"'a' + 1\": compilation failed: ERROR: <input>:1:5: found no matching overload for '_+_' applied to '(string, int)'\n | 'a' + 1\n | ....^]";
const v4Causes = [
  "FieldValueInvalid spec.matchConstraints.namespaceSelector.matchLabels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  'FieldValueNotSupported spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value: "NOPE": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
  'FieldValueInvalid spec.matchConstraints.resourceRules[0].apiGroups: Invalid value: ["","*"]: if \'*\' is present, must not specify other API groups',
  "FieldValueRequired spec.matchConstraints.resourceRules[0].apiVersions: Required value",
  "FieldValueInvalid spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: \"a/b\": if 'a/*' is present, must not specify a/b",
  'FieldValueNotSupported spec.matchConstraints.resourceRules[0].scope: Unsupported value: "Weird": supported values: "*", "Cluster", "Namespaced"',
  "FieldValueInvalid spec.matchConditions[0].expression: Invalid value: \"params == null\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params == null\n | ^",
  "FieldValueInvalid spec.validations[0].expression: Invalid value: \"variables.x\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.x\n | ^",
  "FieldValueInvalid spec.validations[0].messageExpression: Invalid value: \"params.m\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.m\n | ^",
  'FieldValueInvalid spec.auditAnnotations[0].key: Invalid value: "e-v4/": name part must be non-empty',
  "FieldValueInvalid spec.auditAnnotations[0].key: Invalid value: \"e-v4/\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  'FieldValueInvalid spec.auditAnnotations[1].key: Invalid value: "e-v4/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx": name part must be no more than 63 bytes',
  "FieldValueInvalid spec.auditAnnotations[1].valueExpression: Invalid value: \"'a' + 1\": compilation failed: ERROR: <input>:1:5: found no matching overload for '_+_' applied to '(string, int)'\n | 'a' + 1\n | ....^",
];

const m1Spec = {
  failurePolicy: "Maybe",
  paramKind: { apiVersion: "Bad.Group/V1" },
  matchConstraints: {
    resourceRules: [
      {
        apiGroups: [""],
        apiVersions: ["v1"],
        operations: ["DELETE"],
        resources: ["configmaps"],
        resourceNames: ["a", "a"],
      },
    ],
  },
  matchConditions: [{ name: "m", expression: "variables.x == 1" }],
  variables: [
    { name: "x", expression: "params.y" },
    { name: "t", expression: "authorizer" },
  ],
  mutations: [
    { patchType: "ApplyConfiguration", applyConfiguration: { expression: "variables.t" } },
    { patchType: "JSONPatch", jsonPatch: { expression: "params" } },
  ],
  reinvocationPolicy: "Sometimes",
};
const m1Message =
  'MutatingAdmissionPolicy.admissionregistration.k8s.io "e-m1" is invalid: [spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore", spec.paramKind.apiVersion: Invalid value: "Bad.Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\'), spec.paramKind.apiVersion: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\'), spec.paramKind.kind: Required value, spec.matchConstraints.resourceRules[0].resourceNames[1]: Duplicate value: "a", spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE", spec.matchConditions[0].expression: Invalid value: "variables.x == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to \'variables\' (in container \'\')\n | variables.x == 1\n | ^, spec.mutations[0].applyConfiguration.expression: Invalid value: "variables.t": must evaluate to Object but got dyn, spec.mutations[1].jsonPatch.expression: Invalid value: "params": must evaluate to list(JSONPatch) but got dyn, spec.reinvocationPolicy: Unsupported value: "Sometimes": supported values: "IfNeeded", "Never"]';
const m1Causes = [
  'FieldValueNotSupported spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
  "FieldValueInvalid spec.paramKind.apiVersion: Invalid value: \"Bad.Group\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  "FieldValueInvalid spec.paramKind.apiVersion: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  "FieldValueRequired spec.paramKind.kind: Required value",
  'FieldValueDuplicate spec.matchConstraints.resourceRules[0].resourceNames[1]: Duplicate value: "a"',
  'FieldValueNotSupported spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"',
  "FieldValueInvalid spec.matchConditions[0].expression: Invalid value: \"variables.x == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.x == 1\n | ^",
  'FieldValueInvalid spec.mutations[0].applyConfiguration.expression: Invalid value: "variables.t": must evaluate to Object but got dyn',
  'FieldValueInvalid spec.mutations[1].jsonPatch.expression: Invalid value: "params": must evaluate to list(JSONPatch) but got dyn',
  'FieldValueNotSupported spec.reinvocationPolicy: Unsupported value: "Sometimes": supported values: "IfNeeded", "Never"',
];

const m2Spec = {
  matchConstraints: {
    resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["*"], resources: ["configmaps"] }],
  },
  variables: [{ name: "v", expression: "object" }],
  mutations: [
    { patchType: "JSONPatch", jsonPatch: { expression: "params" }, applyConfiguration: { expression: "x" } },
    {
      patchType: "ApplyConfiguration",
      applyConfiguration: { expression: "Object{spec: Object.spec{replicas: variables.v.spec.replicas}}" },
    },
    { patchType: "ApplyConfiguration", applyConfiguration: { expression: "  " } },
  ],
  reinvocationPolicy: "Never",
};
const m2Message =
  'MutatingAdmissionPolicy.admissionregistration.k8s.io "e-m2" is invalid: [spec.mutations[0].jsonPatch.expression: Invalid value: "params": compilation failed: ERROR: <input>:1:1: undeclared reference to \'params\' (in container \'\')\n | params\n | ^, spec.mutations[0].applyConfiguration: Invalid value: "{applyConfiguration}": must not be specified when patchType is JSONPatch, spec.mutations[2].applyConfiguration.expression: Required value]';
const m2Causes = [
  "FieldValueInvalid spec.mutations[0].jsonPatch.expression: Invalid value: \"params\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params\n | ^",
  'FieldValueInvalid spec.mutations[0].applyConfiguration: Invalid value: "{applyConfiguration}": must not be specified when patchType is JSONPatch',
  "FieldValueRequired spec.mutations[2].applyConfiguration.expression: Required value",
];

describe("ValidatingAdmissionPolicy validation", () => {
  it("checks every field of the spec in kube's order and words", async () => {
    const answer = await create("ValidatingAdmissionPolicy", "e-v1", v1Spec);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(v1Message);
    expect(causes(answer)).toEqual(v1Causes);
  });

  it("declares params and variables only where kube's compiler does", async () => {
    const answer = await create("ValidatingAdmissionPolicy", "e-v4", v4Spec);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(v4Message);
    expect(causes(answer)).toEqual(v4Causes);
  });

  it("limits audit annotations to 20 and value expressions to 5120 bytes", async () => {
    const annotations = Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: "'x'" }));
    const long = ` '${"a".repeat(5200)}' `;
    const answer = await create("ValidatingAdmissionPolicy", "e-v2", {
      paramKind: { apiVersion: "/", kind: "x" },
      matchConstraints: configMapRules,
      auditAnnotations: [...annotations, { key: "k22", valueExpression: long }],
    });
    expect(answer.status).toBe(422);
    // kube prints the list as its internal Go structs.
    const goList = [...annotations, { key: "k22", valueExpression: long }].map((a) => ({
      Key: a.key,
      ValueExpression: a.valueExpression,
    }));
    expect(causes(answer)).toEqual([
      'FieldValueInvalid spec.paramKind.apiVersion: Invalid value: "/": version must be specified',
      `FieldValueInvalid spec.auditAnnotations: Invalid value: ${JSON.stringify(goList)}: must not have more than 20 auditAnnotations`,
      "FieldValueRequired spec.auditAnnotations[21].valueExpression: Required value: must not exceed 5120 bytes in length",
    ]);
  });

  it("requires validations or audit annotations", async () => {
    const answer = await create("ValidatingAdmissionPolicy", "e-v5", { matchConstraints: configMapRules });
    expect(answer.body.message).toBe(
      'ValidatingAdmissionPolicy.admissionregistration.k8s.io "e-v5" is invalid: [spec.validations: Required value: validations or auditAnnotations must contain at least one item, spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item]',
    );
  });

  it("stores a policy whose params, variables and audit annotations type-check", async () => {
    const spec = {
      paramKind: { apiVersion: "v1", kind: "ConfigMap" },
      matchConstraints: configMapRules,
      matchConditions: [{ name: "has-params", expression: "params != null" }],
      variables: [
        { name: "names", expression: "[object.metadata.name]" },
        { name: "first", expression: "variables.names[0]" },
      ],
      validations: [
        { expression: "variables.first != ''", messageExpression: "'bad ' + variables.first", reason: "Invalid" },
      ],
      auditAnnotations: [{ key: "first", valueExpression: "string(variables.first)" }],
    };
    const created = await create("ValidatingAdmissionPolicy", "e-v6", spec);
    expect(created.status).toBe(201);
    const stored = created.body as { metadata: Record<string, unknown> };
    const updated = await send("PUT", "ValidatingAdmissionPolicy", {
      metadata: stored.metadata,
      spec: { ...spec, validations: [{ expression: "variables.first" }] },
    });
    expect(updated.status).toBe(422);
    expect(causes(updated)).toEqual([
      'FieldValueInvalid spec.validations[0].expression: Invalid value: "variables.first": must evaluate to bool but got dyn',
    ]);
  });
});

describe("MutatingAdmissionPolicy validation", () => {
  it("checks paramKind, match constraints, match conditions and mutations in kube's order and words", async () => {
    const answer = await create("MutatingAdmissionPolicy", "e-m1", m1Spec);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(m1Message);
    expect(causes(answer)).toEqual(m1Causes);
  });

  it("compiles mutations without params when there is no paramKind", async () => {
    const answer = await create("MutatingAdmissionPolicy", "e-m2", m2Spec);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(m2Message);
    expect(causes(answer)).toEqual(m2Causes);
  });
});
