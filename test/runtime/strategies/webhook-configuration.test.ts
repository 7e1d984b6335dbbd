// Webhook configurations (admissionregistration.k8s.io/v1) defaulted and validated as kube-apiserver
// v1.36.2 does. Every expected answer below was recorded from a reference kube-apiserver given the same
// objects (`kubectl create -f … -o json`, and `kubectl create --raw` for the Status of a 422); the update
// leniencies cannot be reproduced there (v1 refuses to store what they forgive) and follow kube's
// ValidateMutatingWebhookConfigurationUpdate.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatFieldErrors } from "../../../runtime/errors/format-field-error.js";
import { type InProcessServer, startServer } from "../../../runtime/index.js";
import type { KubeObject } from "../../../runtime/object/kube-object.js";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../e2e/kubectl-session.js";
import { defaulted, type Kind, strategyOf } from "./write-path.js";

const Mutating: Kind = ["admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"];
const Validating: Kind = ["admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"];
const mutatingPath = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations";
const validatingPath = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";

/** A valid configuration: one webhook called through a service, one through a URL with a match condition. */
const valid = {
  apiVersion: "admissionregistration.k8s.io/v1",
  kind: "MutatingWebhookConfiguration",
  metadata: { name: "a-valid" },
  webhooks: [
    {
      name: "a.helper.example.com",
      clientConfig: { service: { name: "a-none", namespace: "a-none" } },
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
      failurePolicy: "Ignore",
      objectSelector: { matchLabels: { "a-helper-only": "yes" } },
      rules: [
        { operations: ["CREATE"], apiGroups: ["a.example.invalid"], apiVersions: ["v1"], resources: ["anothings"] },
        {
          operations: ["CREATE"],
          apiGroups: ["a.example.invalid"],
          apiVersions: ["v1"],
          resources: ["anothings2"],
          scope: "Cluster",
        },
      ],
    },
    {
      name: "b.helper.example.com",
      clientConfig: { url: "https://127.0.0.1:1/none" },
      sideEffects: "NoneOnDryRun",
      admissionReviewVersions: ["v1beta1", "v1"],
      failurePolicy: "Ignore",
      namespaceSelector: { matchLabels: { "a-helper-only": "yes" } },
      matchConditions: [{ name: "c", expression: "true" }],
    },
  ],
};

/** kube's answer to `valid`: its webhooks as stored. */
const validDefaulted = [
  {
    admissionReviewVersions: ["v1"],
    clientConfig: { service: { name: "a-none", namespace: "a-none", port: 443 } },
    failurePolicy: "Ignore",
    matchPolicy: "Equivalent",
    name: "a.helper.example.com",
    namespaceSelector: {},
    objectSelector: { matchLabels: { "a-helper-only": "yes" } },
    reinvocationPolicy: "Never",
    rules: [
      {
        apiGroups: ["a.example.invalid"],
        apiVersions: ["v1"],
        operations: ["CREATE"],
        resources: ["anothings"],
        scope: "*",
      },
      {
        apiGroups: ["a.example.invalid"],
        apiVersions: ["v1"],
        operations: ["CREATE"],
        resources: ["anothings2"],
        scope: "Cluster",
      },
    ],
    sideEffects: "None",
    timeoutSeconds: 10,
  },
  {
    admissionReviewVersions: ["v1beta1", "v1"],
    clientConfig: { url: "https://127.0.0.1:1/none" },
    failurePolicy: "Ignore",
    matchConditions: [{ expression: "true", name: "c" }],
    matchPolicy: "Equivalent",
    name: "b.helper.example.com",
    namespaceSelector: { matchLabels: { "a-helper-only": "yes" } },
    objectSelector: {},
    reinvocationPolicy: "Never",
    sideEffects: "NoneOnDryRun",
    timeoutSeconds: 10,
  },
];

const validatingDefaulted = [
  {
    admissionReviewVersions: ["v1"],
    clientConfig: { service: { name: "a-none", namespace: "a-none", port: 443 } },
    failurePolicy: "Ignore",
    matchPolicy: "Equivalent",
    name: "a.helper.example.com",
    namespaceSelector: {},
    objectSelector: { matchLabels: { "a-helper-only": "yes" } },
    rules: [
      {
        apiGroups: ["a.example.invalid"],
        apiVersions: ["v1"],
        operations: ["CREATE"],
        resources: ["anothings"],
        scope: "*",
      },
      {
        apiGroups: ["a.example.invalid"],
        apiVersions: ["v1"],
        operations: ["CREATE"],
        resources: ["anothings2"],
        scope: "Cluster",
      },
    ],
    sideEffects: "None",
    timeoutSeconds: 10,
  },
  {
    admissionReviewVersions: ["v1beta1", "v1"],
    clientConfig: { url: "https://127.0.0.1:1/none" },
    failurePolicy: "Ignore",
    matchConditions: [{ expression: "true", name: "c" }],
    matchPolicy: "Equivalent",
    name: "b.helper.example.com",
    namespaceSelector: { matchLabels: { "a-helper-only": "yes" } },
    objectSelector: {},
    sideEffects: "NoneOnDryRun",
    timeoutSeconds: 10,
  },
];

/** Two webhooks: one with nothing set, one with every rule, policy, selector and condition wrong. */
const rulesAndPolicies = {
  apiVersion: "admissionregistration.k8s.io/v1",
  kind: "MutatingWebhookConfiguration",
  metadata: { name: "a-empty" },
  webhooks: [
    { name: "", clientConfig: {} },
    {
      name: "ab",
      clientConfig: { url: "http://x/y?z#f", service: { name: "s", namespace: "n" } },
      sideEffects: "Some",
      admissionReviewVersions: ["v9", "v9", "A_b"],
      timeoutSeconds: 99,
      failurePolicy: "Bogus",
      matchPolicy: "Bogus",
      reinvocationPolicy: "Bogus",
      rules: [
        {
          operations: ["BOGUS", "*"],
          apiGroups: ["*", "a"],
          apiVersions: ["", "*"],
          resources: ["*/*", "x/*", "x/y", "*/z", "q/z", ""],
          scope: "Bogus",
        },
        {},
      ],
      namespaceSelector: { matchLabels: { "a b": "c d" }, matchExpressions: [{ key: "k", operator: "In" }] },
      objectSelector: {
        matchExpressions: [
          { key: "k", operator: "Exists", values: ["a"] },
          { key: "k", operator: "Bogus" },
        ],
      },
      matchConditions: [
        { name: "a b", expression: "1" },
        { name: "a b", expression: "object.foo(" },
        { name: "", expression: "  " },
        { name: "p", expression: "params.x == 1" },
      ],
    },
  ],
};

const rulesAndPoliciesErrors =
  "[webhooks[0].name: Required value, webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, webhooks[0].clientConfig: Required value: exactly one of url or service is required, webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1, webhooks[1].name: Invalid value: \"ab\": should be a domain with at least three segments separated by dots, webhooks[1].rules[0].operations: Invalid value: [\"BOGUS\",\"*\"]: if '*' is present, must not specify other operations, webhooks[1].rules[0].operations[0]: Unsupported value: \"BOGUS\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\", webhooks[1].rules[0].apiGroups: Invalid value: [\"*\",\"a\"]: if '*' is present, must not specify other API groups, webhooks[1].rules[0].apiVersions: Invalid value: [\"\",\"*\"]: if '*' is present, must not specify other API versions, webhooks[1].rules[0].apiVersions[0]: Required value, webhooks[1].rules[0].resources[1]: Invalid value: \"x/*\": if '*/*' is present, must not specify x/*, webhooks[1].rules[0].resources[2]: Invalid value: \"x/y\": if 'x/*' is present, must not specify x/y, webhooks[1].rules[0].resources[3]: Invalid value: \"*/z\": if '*/*' is present, must not specify */z, webhooks[1].rules[0].resources[4]: Invalid value: \"q/z\": if '*/z' is present, must not specify q/z, webhooks[1].rules[0].resources[5]: Required value, webhooks[1].rules[0].resources: Invalid value: [\"*/*\",\"x/*\",\"x/y\",\"*/z\",\"q/z\",\"\"]: if '*/*' is present, must not specify other resources, webhooks[1].rules[0].scope: Unsupported value: \"Bogus\": supported values: \"*\", \"Cluster\", \"Namespaced\", webhooks[1].rules[1].operations: Required value, webhooks[1].rules[1].apiGroups: Required value, webhooks[1].rules[1].apiVersions: Required value, webhooks[1].rules[1].resources: Required value, webhooks[1].failurePolicy: Unsupported value: \"Bogus\": supported values: \"Fail\", \"Ignore\", webhooks[1].matchPolicy: Unsupported value: \"Bogus\": supported values: \"Equivalent\", \"Exact\", webhooks[1].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\", webhooks[1].timeoutSeconds: Invalid value: 99: the timeout value must be between 1 and 30 seconds, webhooks[1].namespaceSelector.matchLabels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), webhooks[1].namespaceSelector.matchLabels: Invalid value: \"c d\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), webhooks[1].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn', webhooks[1].objectSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist', webhooks[1].objectSelector.matchExpressions[1].operator: Invalid value: \"Bogus\": not a valid selector operator, webhooks[1].reinvocationPolicy: Unsupported value: \"Bogus\": supported values: \"IfNeeded\", \"Never\", webhooks[1].clientConfig: Required value: exactly one of url or service is required, webhooks[1].matchConditions[0].expression: Invalid value: \"1\": must evaluate to bool but got int, webhooks[1].matchConditions[0].name: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), webhooks[1].matchConditions[1].expression: Invalid value: \"object.foo(\": compilation failed: ERROR: <input>:1:12: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | object.foo(\n | ...........^, webhooks[1].matchConditions[1].name: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), webhooks[1].matchConditions[1].name: Duplicate value: \"a b\", webhooks[1].matchConditions[2].expression: Required value, webhooks[1].matchConditions[2].name: Required value, webhooks[1].matchConditions[3].expression: Invalid value: \"params.x == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x == 1\n | ^, webhooks[1].admissionReviewVersions[1]: Invalid value: \"v9\": duplicate version, webhooks[1].admissionReviewVersions[2]: Invalid value: \"A_b\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), webhooks[1].admissionReviewVersions: Invalid value: [\"v9\",\"v9\",\"A_b\"]: must include at least one of v1, v1beta1]";

/** Client configs (URLs, services) and match condition expressions, each wrong in its own way. */
const clientConfigsAndConditions = {
  apiVersion: "admissionregistration.k8s.io/v1",
  kind: "ValidatingWebhookConfiguration",
  metadata: { name: "a-probe2" },
  webhooks: [
    {
      name: "A.b.c",
      clientConfig: { url: "http://x" },
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
      timeoutSeconds: 0,
    },
    {
      name: "a.b.c",
      clientConfig: { url: "https://" },
      sideEffects: "NoneOnDryRun",
      admissionReviewVersions: ["v1beta1"],
    },
    {
      name: "c.b.c",
      clientConfig: { url: "https://u:p@h/p#frag?x" },
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
    },
    { name: "d.b.c", clientConfig: { url: "https://h/p?q=1#f" }, sideEffects: "None", admissionReviewVersions: ["v1"] },
    { name: "e.b.c", clientConfig: { url: "%zz" }, sideEffects: "None", admissionReviewVersions: ["v1"] },
    { name: "f.b.c", clientConfig: { url: "" }, sideEffects: "None", admissionReviewVersions: ["v1"] },
    {
      name: "g.b.c",
      clientConfig: { service: { name: "", namespace: "", port: 0, path: "//" } },
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
    },
    {
      name: "h.b.c",
      clientConfig: { service: { name: "s", namespace: "ns", port: 70000, path: "noslash/A_b//c/" } },
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
    },
    {
      name: "i.b.c",
      clientConfig: { service: { name: "s", namespace: "ns", path: "/" } },
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
      matchConditions: [
        { name: "dyn", expression: "object.metadata.name" },
        { name: "req", expression: "request.name" },
        { name: "authz", expression: "authorizer.group('').resource('pods').check('get').allowed()" },
        { name: "ns", expression: "namespaceObject.metadata.name == 'x'" },
        { name: "vars", expression: "variables.x" },
        { name: "a.b/c", expression: "true" },
        { name: "list", expression: "[1,2]" },
        { name: "map", expression: "{'a': 1}" },
        { name: "str", expression: "request.name + 1" },
        { name: "uns", expression: "authorizer.requestResource.check('get').allowed()" },
        { name: "old", expression: "oldObject == null" },
        { name: "opt", expression: "object.?metadata.orValue(1) == 1" },
      ],
    },
  ],
};

const clientConfigsAndConditionsMessage =
  'ValidatingWebhookConfiguration.admissionregistration.k8s.io "a-probe2" is invalid: [webhooks[0].name: Invalid value: "A.b.c": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\'), webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds, webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path], webhooks[1].clientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path], webhooks[2].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL, webhooks[2].clientConfig.url: Invalid value: "frag?x": fragments are not permitted in the URL, webhooks[3].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL, webhooks[3].clientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL, webhooks[4].clientConfig.url: Required value: url must be a valid URL: parse "%zz": invalid URL escape "%zz"; desired format: https://host[/path], webhooks[5].clientConfig.url: Invalid value: "": \'https\' is the only allowed URL scheme; desired format: https://host[/path], webhooks[5].clientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path], webhooks[6].clientConfig.service.name: Required value, webhooks[6].clientConfig.service.namespace: Required value, webhooks[6].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive, webhooks[6].clientConfig.service.path: Invalid value: "//": segment[0] may not be empty, webhooks[7].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive, webhooks[7].clientConfig.service.path: Invalid value: "noslash/A_b//c/": must start with a \'/\', webhooks[7].clientConfig.service.path: Invalid value: "noslash/A_b//c/": segment[1]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\'), webhooks[7].clientConfig.service.path: Invalid value: "noslash/A_b//c/": segment[2] may not be empty, webhooks[8].matchConditions[0].expression: Invalid value: "object.metadata.name": must evaluate to bool but got dyn, webhooks[8].matchConditions[1].expression: Invalid value: "request.name": must evaluate to bool but got string, webhooks[8].matchConditions[4].expression: Invalid value: "variables.x": compilation failed: ERROR: <input>:1:1: undeclared reference to \'variables\' (in container \'\')\n | variables.x\n | ^, webhooks[8].matchConditions[6].expression: Invalid value: "[1,2]": must evaluate to bool but got list(int), webhooks[8].matchConditions[7].expression: Invalid value: "{\'a\': 1}": must evaluate to bool but got map(string, int), webhooks[8].matchConditions[8].expression: Invalid value: "request.name + 1": compilation failed: ERROR: <input>:1:14: found no matching overload for \'_+_\' applied to \'(string, int)\'\n | request.name + 1\n | .............^]';

function copy<T>(value: T): T {
  return structuredClone(value);
}

function validateErrors(kind: Kind, obj: KubeObject, old?: KubeObject): string {
  const own = strategyOf(kind).validate?.(defaulted(kind, obj), old === undefined ? undefined : defaulted(kind, old));
  return own === undefined || own.length === 0 ? "" : formatFieldErrors(own);
}

/** A mutating configuration of one webhook, valid but for what `hook` overrides. */
function oneWebhook(hook: Record<string, unknown>): KubeObject {
  const config = copy(valid) as KubeObject & { webhooks: Record<string, unknown>[] };
  config.webhooks = [{ ...config.webhooks[1], ...hook }];
  return config;
}

describe("webhook configuration validation", () => {
  it("reports rules, policies, selectors and match conditions in kube's words and order", () => {
    expect(validateErrors(Mutating, copy(rulesAndPolicies))).toBe(rulesAndPoliciesErrors);
  });

  it("accepts a valid configuration", () => {
    expect(validateErrors(Mutating, copy(valid))).toBe("");
    expect(validateErrors(Validating, { ...copy(valid), kind: "ValidatingWebhookConfiguration" })).toBe("");
  });

  it("allows side effects an older configuration already had, and only then", () => {
    const old = oneWebhook({ sideEffects: "Some" });
    expect(validateErrors(Mutating, oneWebhook({ sideEffects: "Unknown" }), old)).toBe("");
    expect(validateErrors(Mutating, oneWebhook({ sideEffects: "Bogus" }), old)).toBe(
      'webhooks[0].sideEffects: Unsupported value: "Bogus": supported values: "None", "NoneOnDryRun", "Some", "Unknown"',
    );
    expect(validateErrors(Mutating, oneWebhook({ sideEffects: "Unknown" }))).toBe(
      'webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
    );
    const sideEffectsLeftOut = oneWebhook({});
    delete (sideEffectsLeftOut.webhooks as Record<string, unknown>[])[0]?.sideEffects;
    expect(validateErrors(Mutating, copy(sideEffectsLeftOut), old)).toBe(
      "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, Some, Unknown",
    );
  });

  it("skips match conditions an update leaves as they were", () => {
    const invalidCondition = { matchConditions: [{ name: "c", expression: "1" }] };
    const old = oneWebhook(invalidCondition);
    expect(validateErrors(Mutating, oneWebhook({ ...invalidCondition, timeoutSeconds: 5 }), old)).toBe("");
    expect(validateErrors(Mutating, oneWebhook({ matchConditions: [{ name: "d", expression: "1" }] }), old)).toBe(
      'webhooks[0].matchConditions[0].expression: Invalid value: "1": must evaluate to bool but got int',
    );
  });

  it("keeps unrecognized review versions and invalid selector values an older configuration had", () => {
    const unrecognized = { admissionReviewVersions: ["v9"] };
    expect(validateErrors(Mutating, oneWebhook(unrecognized), oneWebhook(unrecognized))).toBe("");
    expect(validateErrors(Mutating, oneWebhook(unrecognized))).toBe(
      'webhooks[0].admissionReviewVersions: Invalid value: ["v9"]: must include at least one of v1, v1beta1',
    );
    const badValue = { objectSelector: { matchExpressions: [{ key: "k", operator: "In", values: ["a b"] }] } };
    expect(validateErrors(Mutating, oneWebhook(badValue), oneWebhook(badValue))).toBe("");
    expect(validateErrors(Mutating, oneWebhook(badValue))).toContain(
      'webhooks[0].objectSelector.matchExpressions[0].values[0]: Invalid value: "a b"',
    );
  });

  it("reports duplicate webhook names unless the stored configuration had them", () => {
    const twice = copy(valid) as KubeObject & { webhooks: Record<string, unknown>[] };
    const hook = valid.webhooks[1] as Record<string, unknown>;
    twice.webhooks = [copy(hook), copy(hook)];
    expect(validateErrors(Mutating, copy(twice))).toBe('webhooks[1].name: Duplicate value: "b.helper.example.com"');
    expect(validateErrors(Mutating, copy(twice), copy(twice))).toBe("");
  });
});

describe("webhook configurations on the server", () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startServer({ listen: false });
  });
  afterAll(() => server.close());

  /** The fields these tests read of a stored configuration or of a Status. */
  interface Answer {
    message?: string;
    details?: { causes?: unknown[] };
    metadata: { generation?: number };
    webhooks: { timeoutSeconds?: number; matchConditions: { expression: string }[] }[];
  }

  async function send(method: string, path: string, body?: object) {
    const response = await server.request({ method, path, ...(body === undefined ? {} : { body }) });
    return { status: response.status, body: (await response.json()) as Answer, response };
  }

  it("answers a 422 with kube's message for bad client configs and match conditions", async () => {
    const { status, body } = await send("POST", validatingPath, clientConfigsAndConditions);
    expect(status).toBe(422);
    expect(body.message).toBe(clientConfigsAndConditionsMessage);
  });

  it("tracks the generation and refuses an update without a resourceVersion", async () => {
    const config = { ...copy(valid), metadata: { name: "generations" } };
    const created = await send("POST", mutatingPath, config);
    expect(created.status).toBe(201);
    expect(created.body.metadata.generation).toBe(1);
    const unconditional = await send("PUT", `${mutatingPath}/generations`, config);
    expect(unconditional.status).toBe(422);
    // kube names the resource here, not the kind.
    expect(unconditional.body.message).toBe(
      'mutatingwebhookconfigurations.admissionregistration.k8s.io "generations" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    );
    expect(unconditional.body.details?.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message: "Invalid value: 0: must be specified for an update",
        field: "metadata.resourceVersion",
      },
    ]);
    const stored = created.body;
    const [first, second] = stored.webhooks;
    const condition = second?.matchConditions[0];
    if (first === undefined || condition === undefined) throw new Error("webhooks not stored");
    first.timeoutSeconds = 31;
    condition.expression = "1";
    const invalidUpdate = await send("PUT", `${mutatingPath}/generations`, stored);
    expect(invalidUpdate.status).toBe(422);
    expect(invalidUpdate.body.message).toBe(
      'MutatingWebhookConfiguration.admissionregistration.k8s.io "generations" is invalid: [webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds, webhooks[1].matchConditions[0].expression: Invalid value: "1": must evaluate to bool but got int]',
    );
    first.timeoutSeconds = 30;
    condition.expression = "true";
    const updated = await send("PUT", `${mutatingPath}/generations`, stored);
    expect(updated.status).toBe(200);
    expect(updated.body.metadata.generation).toBe(2);
  });

  it("warns about names kube reserves for static configurations", async () => {
    const config = { ...copy(valid), metadata: { name: "mine.static.k8s.io" } };
    const { status, response } = await send("POST", mutatingPath, config);
    expect(status).toBe(201);
    expect(response.headers.get("warning")).toBe(
      '299 - "metadata.name: names ending with \\".static.k8s.io\\" are reserved for static manifest-based configurations and cannot be managed via the API"',
    );
  });
});

describe.skipIf(!haveKubectl)("webhook configuration defaults through kubectl", () => {
  let session: KubectlSession;
  beforeAll(async () => {
    session = await startKubectlSession();
  });
  afterAll(() => session.close());

  it("stores kube's defaults for mutating and validating webhooks", async () => {
    const mutating = JSON.parse(
      await session.kubectl("create", "-f", session.file("m.json", JSON.stringify(valid)), "-o", "json"),
    );
    expect(mutating.webhooks).toEqual(validDefaulted);
    expect(mutating.metadata.generation).toBe(1);
    const validating = { ...copy(valid), kind: "ValidatingWebhookConfiguration" };
    const created = JSON.parse(
      await session.kubectl("create", "-f", session.file("v.json", JSON.stringify(validating)), "-o", "json"),
    );
    expect(created.webhooks).toEqual(validatingDefaulted);
  });
});
