import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type AuthorizationOptions,
  formatGoDuration,
  parseAuthorizationConfiguration,
  parseGoDuration,
  resolveAuthorization,
} from "../../../runtime/authz/authorization-config.js";

const dir = mkdtempSync(join(tmpdir(), "kapi-authz-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const kubeconfig = join(dir, "webhook.kubeconfig");
writeFileSync(kubeconfig, "clusters: []\n");

const header = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n";

/** A configuration with one webhook whose fields are `webhook` (YAML lines, indented under it). */
function withWebhook(...lines: string[]): string {
  return `${header}authorizers:\n- type: Webhook\n  name: policy\n  webhook:\n${lines.map((l) => `    ${l}`).join("\n")}\n`;
}

const validWebhook = [
  "timeout: 3s",
  "subjectAccessReviewVersion: v1",
  "failurePolicy: Deny",
  "connectionInfo:",
  "  type: KubeConfigFile",
  `  kubeConfigFile: ${kubeconfig}`,
];

function errorOf(data: string): string {
  try {
    parseAuthorizationConfiguration(data);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the configuration was accepted");
}

describe("AuthorizationConfiguration files", () => {
  it("reads the authorizers in order with the webhook defaults", () => {
    const data = `${header}authorizers:\n- type: Node\n  name: node\n- type: RBAC\n  name: rbac\n${
      withWebhook(
        ...validWebhook,
        "matchConditionSubjectAccessReviewVersion: v1",
        "matchConditions:",
        "- expression: has(request.resourceAttributes)",
      ).split("authorizers:\n")[1]
    }`;
    expect(parseAuthorizationConfiguration(data)).toEqual({
      authorizers: [
        { type: "Node", name: "node" },
        { type: "RBAC", name: "rbac" },
        {
          type: "Webhook",
          name: "policy",
          webhook: {
            authorizedTtlMs: 300_000,
            cacheAuthorizedRequests: true,
            unauthorizedTtlMs: 30_000,
            cacheUnauthorizedRequests: true,
            timeoutMs: 3_000,
            subjectAccessReviewVersion: "v1",
            matchConditionSubjectAccessReviewVersion: "v1",
            failurePolicy: "Deny",
            connectionInfo: { type: "KubeConfigFile", kubeConfigFile: kubeconfig },
            matchConditions: [{ expression: "has(request.resourceAttributes)" }],
          },
        },
      ],
    });
  });

  it("accepts JSON, v1beta1 and v1alpha1, explicit TTLs and disabled caches", () => {
    const json = JSON.stringify({
      apiVersion: "apiserver.config.k8s.io/v1beta1",
      kind: "AuthorizationConfiguration",
      authorizers: [{ type: "AlwaysDeny", name: "alwaysdeny" }],
    });
    expect(parseAuthorizationConfiguration(json).authorizers).toEqual([{ type: "AlwaysDeny", name: "alwaysdeny" }]);
    const alpha = withWebhook(
      ...validWebhook,
      "authorizedTTL: 1m30s",
      "unauthorizedTTL: 500ms",
      "cacheAuthorizedRequests: false",
    ).replace("/v1\n", "/v1alpha1\n");
    expect(parseAuthorizationConfiguration(alpha).authorizers[0]?.webhook).toMatchObject({
      authorizedTtlMs: 90_000,
      cacheAuthorizedRequests: false,
      unauthorizedTtlMs: 500,
      cacheUnauthorizedRequests: true,
    });
  });

  it("refuses what kube's decoder refuses", () => {
    expect(errorOf("kind: AuthorizationConfiguration\nauthorizers: []\n")).toBe(
      // kube-apiserver v1.36.2 quotes the file as it is.
      "failed to load AuthorizationConfiguration from file: Object 'apiVersion' is missing in 'kind: AuthorizationConfiguration\nauthorizers: []\n'",
    );
    expect(errorOf("apiVersion: apiserver.config.k8s.io/v2\nkind: AuthorizationConfiguration\n")).toBe(
      'failed to load AuthorizationConfiguration from file: no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v2" in scheme "pkg/apis/apiserver/load/load.go:32"',
    );
    expect(errorOf(`${header}authorizers:\n- type: RBAC\n  name: rbac\n  extra: 1\nfoo: bar\n`)).toBe(
      'failed to load AuthorizationConfiguration from file: strict decoding error: unknown field "authorizers[0].extra", unknown field "foo"',
    );
    expect(errorOf(withWebhook("timeout: 3")).toString()).toBe(
      "failed to load AuthorizationConfiguration from file: json: cannot unmarshal number into Go struct field WebhookConfiguration.authorizers.webhook.timeout of type string",
    );
    expect(errorOf(withWebhook("timeout: 3x"))).toBe(
      'failed to load AuthorizationConfiguration from file: time: unknown unit "x" in duration "3x"',
    );
    expect(errorOf(`${header}authorizers:\n- type: RBAC\n  type: Node\n`)).toBe(
      'failed to load AuthorizationConfiguration from file: strict decoding error: yaml: unmarshal errors:\n  line 5: key "type" already set in map',
    );
  });

  it("validates authorizers with kube's field errors", () => {
    expect(errorOf(header)).toBe("authorizers: Required value: at least one authorization mode must be defined");
    expect(errorOf(`${header}authorizers:\n- type: Foo\n  name: foo\n`)).toBe(
      'authorizers[0].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"',
    );
    expect(errorOf(`${header}authorizers:\n- type: RBAC\n  name: rbac\n- type: RBAC\n  name: rbac2\n`)).toBe(
      'authorizers[1].type: Duplicate value: "RBAC"',
    );
    expect(errorOf(`${header}authorizers:\n- type: RBAC\n`)).toBe("authorizers[0].name: Required value");
    expect(errorOf(`${header}authorizers:\n- name: x\n`)).toBe("authorizers[0].type: Required value");
    expect(errorOf(`${header}authorizers:\n- type: Webhook\n  name: Bad_Name\n`)).toBe(
      "[authorizers[0].name: Invalid value: \"Bad_Name\": authorizer name is invalid: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), authorizers[0].webhook: Required value: required when type=Webhook]",
    );
    expect(errorOf(`${header}authorizers:\n- type: RBAC\n  name: rbac\n  webhook: {}\n`)).toBe(
      'authorizers[0].webhook: Invalid value: "non-null": may only be specified when type=Webhook',
    );
    expect(errorOf(`${header}authorizers:\n- type: RBAC\n  name: authz\n`)).toBe(
      "expected name rbac for authorizer RBAC instead of authz",
    );
    const twoWebhooks = `${withWebhook(...validWebhook)}${withWebhook(...validWebhook).split("authorizers:\n")[1]}`;
    expect(errorOf(twoWebhooks)).toBe('authorizers[1].name: Duplicate value: "policy"');
  });

  it("validates webhooks with kube's field errors (paths directly under the authorizer)", () => {
    expect(errorOf(withWebhook("failurePolicy: Deny"))).toBe(
      "[authorizers[0].timeout: Required value, authorizers[0].subjectAccessReviewVersion: Required value, authorizers[0].connectionInfo.type: Required value]",
    );
    const replaced = (from: string, to: string) => withWebhook(...validWebhook.map((l) => (l === from ? to : l)));
    expect(errorOf(replaced("timeout: 3s", "timeout: 31s"))).toBe(
      'authorizers[0].timeout: Invalid value: "31s": must be > 0s and <= 30s',
    );
    expect(errorOf(withWebhook(...validWebhook, "authorizedTTL: -1m"))).toBe(
      'authorizers[0].authorizedTTL: Invalid value: "-1m0s": must be > 0s',
    );
    expect(errorOf(replaced("subjectAccessReviewVersion: v1", "subjectAccessReviewVersion: v2"))).toBe(
      'authorizers[0].subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"',
    );
    expect(errorOf(replaced("failurePolicy: Deny", "failurePolicy: Fail"))).toBe(
      'authorizers[0].failurePolicy: Unsupported value: "Fail": supported values: "NoOpinion", "Deny"',
    );
    expect(errorOf(replaced("  type: KubeConfigFile", "  type: Magic"))).toBe(
      'authorizers[0].connectionInfo.type: Unsupported value: "Magic": supported values: "InClusterConfig", "KubeConfigFile"',
    );
    expect(errorOf(replaced("  type: KubeConfigFile", "  type: InClusterConfig"))).toBe(
      `authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "${kubeconfig}": can only be set when type=KubeConfigFile`,
    );
    expect(errorOf(replaced(`  kubeConfigFile: ${kubeconfig}`, "  kubeConfigFile: relative.kubeconfig"))).toBe(
      'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "relative.kubeconfig": must be an absolute path',
    );
    expect(errorOf(replaced(`  kubeConfigFile: ${kubeconfig}`, `  kubeConfigFile: ${dir}/none`))).toBe(
      `authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "${dir}/none": error loading file: stat ${dir}/none: no such file or directory`,
    );
    expect(errorOf(replaced(`  kubeConfigFile: ${kubeconfig}`, `  kubeConfigFile: ${dir}`))).toBe(
      `authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "${dir}": must be a regular file`,
    );
  });

  it("validates match conditions", () => {
    const conditions = (...expressions: string[]) =>
      withWebhook(
        ...validWebhook,
        "matchConditionSubjectAccessReviewVersion: v1",
        "matchConditions:",
        ...expressions.map((e) => `- expression: ${JSON.stringify(e)}`),
      );
    expect(errorOf(withWebhook(...validWebhook, "matchConditions:", "- expression: 'true'"))).toBe(
      "authorizers[0].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified",
    );
    expect(errorOf(withWebhook(...validWebhook, "matchConditionSubjectAccessReviewVersion: v1beta1"))).toBe(
      'authorizers[0].matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1"',
    );
    expect(errorOf(conditions("true", "true", " "))).toBe(
      '[authorizers[0].matchConditions[1].expression: Duplicate value: "true", authorizers[0].matchConditions[2].expression: Required value]',
    );
    expect(errorOf(conditions("request.user"))).toBe(
      'authorizers[0].matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool but got string',
    );
    expect(errorOf(conditions(...Array.from({ length: 65 }, (_, i) => `request.user == 'u${i}'`)))).toBe(
      "authorizers[0].matchConditions: Too many: 65: must have at most 64 items",
    );
    expect(() =>
      parseAuthorizationConfiguration(conditions(...Array.from({ length: 64 }, (_, i) => `request.uid != '${i}'`))),
    ).not.toThrow();
  });

  it("requires the first load's non-webhook types on a reload", () => {
    const rbacOnly = `${header}authorizers:\n- type: RBAC\n  name: rbac\n`;
    expect(() => parseAuthorizationConfiguration(rbacOnly, new Set(["Node", "RBAC"]))).toThrow(
      "missing required types: [Node]",
    );
  });
});

describe("legacy authorization flags", () => {
  const read = (): string => {
    throw new Error("no file expected");
  };
  const resolve = (options: AuthorizationOptions) => resolveAuthorization(options, read).configuration.authorizers;
  const errorFrom = (options: AuthorizationOptions) => {
    try {
      resolveAuthorization(options, read);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error("the options were accepted");
  };

  it("default to AlwaysAllow and name each mode in lower case", () => {
    expect(resolve({})).toEqual([{ type: "AlwaysAllow", name: "alwaysallow" }]);
    expect(resolve({ authorizationMode: "Node,RBAC" })).toEqual([
      { type: "Node", name: "node" },
      { type: "RBAC", name: "rbac" },
    ]);
    expect(resolve({ authorizationMode: ["ABAC"], authorizationPolicyFile: "/p" })).toEqual([
      { type: "ABAC", name: "abac" },
    ]);
  });

  it("turn the webhook flags into a webhook named default", () => {
    expect(
      resolve({
        authorizationMode: "Webhook",
        authorizationWebhookConfigFile: "/etc/authz.kubeconfig",
        authorizationWebhookCacheUnauthorizedTtl: "0s",
      }),
    ).toEqual([
      {
        type: "Webhook",
        name: "default",
        webhook: {
          authorizedTtlMs: 300_000,
          cacheAuthorizedRequests: true,
          unauthorizedTtlMs: 0,
          cacheUnauthorizedRequests: false,
          timeoutMs: 30_000,
          failurePolicy: "NoOpinion",
          subjectAccessReviewVersion: "v1beta1",
          matchConditionSubjectAccessReviewVersion: "",
          connectionInfo: { type: "KubeConfigFile", kubeConfigFile: "/etc/authz.kubeconfig" },
          matchConditions: [],
        },
      },
    ]);
  });

  it("refuse inconsistent flags with kube's messages", () => {
    expect(errorFrom({ authorizationMode: "Magic" })).toBe('authorization-mode "Magic" is not a valid mode');
    expect(errorFrom({ authorizationMode: "ABAC,Webhook" })).toBe(
      "[authorization-mode ABAC's authorization policy file not passed, authorization-mode Webhook's authorization config file not passed]",
    );
    expect(errorFrom({ authorizationPolicyFile: "/p" })).toBe(
      "cannot specify --authorization-policy-file without mode ABAC",
    );
    expect(errorFrom({ authorizationMode: "RBAC", authorizationWebhookConfigFile: "/k" })).toBe(
      "cannot specify --authorization-webhook-config-file without mode Webhook",
    );
    expect(errorFrom({ authorizationMode: "RBAC,RBAC" })).toBe(
      "authorization-mode [RBAC RBAC] has mode specified more than once",
    );
    expect(
      errorFrom({
        authorizationMode: "Webhook",
        authorizationWebhookConfigFile: "/k",
        authorizationWebhookCacheAuthorizedTtl: "5",
      }),
    ).toBe(
      'invalid argument "5" for "--authorization-webhook-cache-authorized-ttl" flag: time: missing unit in duration "5"',
    );
  });

  it("refuse --authorization-config together with the mode or webhook flags", () => {
    const message =
      "--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined";
    expect(errorFrom({ authorizationConfig: "/c", authorizationMode: "RBAC" })).toBe(message);
    expect(errorFrom({ authorizationConfig: "/c", authorizationWebhookVersion: "v1" })).toBe(message);
  });

  it("read --authorization-config through the given reader, keeping its text for reloads", () => {
    const data = `${header}authorizers:\n- type: ABAC\n  name: abac\n`;
    expect(
      resolveAuthorization({ authorizationConfig: "/etc/authz.yaml", authorizationPolicyFile: "/p" }, () => data),
    ).toEqual({
      configuration: { authorizers: [{ type: "ABAC", name: "abac" }] },
      configFile: { path: "/etc/authz.yaml", data },
      policyFile: "/p",
    });
  });
});

describe("Go durations", () => {
  it("parse and print as Go does", () => {
    expect(parseGoDuration("1h2m3.5s")).toBe(3_723_500_000_000n);
    expect(() => parseGoDuration("5")).toThrow('time: missing unit in duration "5"');
    const cases: [string, string][] = [
      ["0", "0s"],
      ["5m", "5m0s"],
      ["30s", "30s"],
      ["1h", "1h0m0s"],
      ["1.5ms", "1.5ms"],
      ["2us", "2µs"],
      ["100ns", "100ns"],
      ["-90s", "-1m30s"],
      ["61.25s", "1m1.25s"],
    ];
    for (const [text, printed] of cases) expect(formatGoDuration(parseGoDuration(text))).toBe(printed);
  });
});
