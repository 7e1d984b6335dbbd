// The configuration kinds' strategy hooks: kube's hand-coded validation and defaulting that schemas cannot
// declare, reached through `kapi config` as through kapi's own readers. Expected texts are kube v1.36.2's,
// taken from its validation code and the expectations of its *_test.go files (validation_encryption_test.go,
// pkg/scheduler/apis/config/validation, component-base's leader election validation, Go's time package).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  checkAuthenticationConfig,
  parseAuthenticationConfig,
} from "../../../runtime/authn/jwt/authentication-config.js";
import { parseAuthorizationConfiguration } from "../../../runtime/authz/authorization-config.js";
import { decodeConfig, defaultConfig, validateConfig } from "../../../runtime/config/config-document.js";

function read(doc: string): Record<string, unknown> {
  return defaultConfig(decodeConfig(doc).object);
}

function errorsOf(doc: string): string[] {
  return validateConfig(read(doc));
}

function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected an error");
}

const dataFile = new URL("../../data/config/validation/encryption-invalid.yaml", import.meta.url);
const apiserver = "apiVersion: apiserver.config.k8s.io/v1\n";
const scheduler = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

describe("AuthenticationConfiguration and AuthorizationConfiguration", () => {
  it("validate as the --authentication-config reader does", () => {
    const doc = `${apiserver}kind: AuthenticationConfiguration\njwt:\n- issuer: {url: "http://example.com", audiences: []}\n  claimMappings: {username: {claim: sub}}\n`;
    const expected = [
      'jwt[0].issuer.url: Invalid value: "http://example.com": URL scheme must be https',
      "jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required",
      "jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing",
    ];
    expect(errorsOf(doc)).toEqual(expected);
    expect(thrown(() => checkAuthenticationConfig(parseAuthenticationConfig(doc)))).toBe(
      `invalid authentication configuration: [${expected.join(", ")}]`,
    );
  });

  it("validate as the --authorization-config reader does", () => {
    const doc =
      `${apiserver}kind: AuthorizationConfiguration\nauthorizers:\n` +
      "- {type: Webhook, name: w, webhook: {timeout: 40s, subjectAccessReviewVersion: v2, failurePolicy: Deny, connectionInfo: {type: KubeConfigFile, kubeConfigFile: rel/path}}}\n" +
      "- {type: RBAC, name: rbac}\n- {type: RBAC, name: rbac2}\n";
    const expected = [
      'authorizers[0].timeout: Invalid value: "40s": must be > 0s and <= 30s',
      'authorizers[0].subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"',
      'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "rel/path": must be an absolute path',
      'authorizers[2].type: Duplicate value: "RBAC"',
    ];
    expect(errorsOf(doc)).toEqual(expected);
    expect(thrown(() => parseAuthorizationConfiguration(doc))).toBe(`[${expected.join(", ")}]`);
  });
});

describe("EncryptionConfiguration", () => {
  const expected = [
    'resources[0].resources: Invalid value: ["secrets","*.","Secrets","*","apiserveripinfo","events.events.k8s.io","deployments.extensions","foo.*","secrets"]: the same resource cannot be specified multiple times',
    'resources[0].resources: Invalid value: ["secrets","*.","Secrets","*","apiserveripinfo","events.events.k8s.io","deployments.extensions","foo.*","secrets"]: using overlapping resources such as \'secrets\' and \'*.\' in the same resource list is not allowed as they will be masked',
    'resources[0].resources[2]: Invalid value: "Secrets": resource name should not contain capital letters',
    "resources[0].resources[3]: Invalid value: \"*\": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources",
    'resources[0].resources[4]: Invalid value: "apiserveripinfo": resources which do not have REST API/s cannot be encrypted',
    "resources[0].resources[5]: Invalid value: \"events.events.k8s.io\": '*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file",
    "resources[0].resources[6]: Invalid value: \"deployments.extensions\": 'extensions' group has been removed and cannot be used for encryption",
    'resources[0].resources[7]: Invalid value: "foo.*": encrypting the same resource across groups is not supported',
    'resources[0].providers[0]: Invalid value: {"AESGCM":{"Keys":[{"Name":"k1","Secret":"c2VjcmV0IGlzIHNlY3VyZQ=="}]},"AESCBC":{"Keys":[{"Name":"k2","Secret":"dGhpcyBpcyBwYXNzd29yZA=="}]},"Secretbox":null,"Identity":null,"KMS":null}: more than one provider specified in a single element, should split into different list elements',
    'resources[0].providers[1]: Invalid value: {"AESGCM":null,"AESCBC":null,"Secretbox":null,"Identity":null,"KMS":null}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity',
    "resources[0].providers[2].aescbc.keys[0].name: Required value: name is a mandatory field for a key",
    'resources[0].providers[2].aescbc.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded',
    'resources[0].providers[2].aescbc.keys[1].secret: Invalid value: "REDACTED": secret is not of the expected length, got 9, expected one of [16 24 32]',
    "resources[0].providers[3].kms.name: Invalid value: \"a:b\": invalid KMS provider name a:b, must not contain ':'",
    'resources[0].providers[3].kms.timeout: Invalid value: "0s": timeout should be a positive value',
    'resources[0].providers[3].kms.endpoint: Invalid value: "https://foo": unsupported scheme "https" for KMS provider, only unix is supported',
    "resources[0].providers[3].kms.cachesize: Invalid value: 10: cachesize is not supported in v2",
    "resources[0].providers[4].kms.name: Invalid value: \"a:b\": invalid KMS provider name a:b, must not contain ':'",
    'resources[0].providers[4].kms.name: Invalid value: "a:b": duplicate KMS provider name a:b, names must be unique',
    'resources[0].providers[4].kms.endpoint: Invalid value: "unix:///foo\\n.sock": invalid endpoint for kms provider, error: parse "unix:///foo\\n.sock": net/url: invalid control character in URL',
    'resources[0].providers[5].kms.apiVersion: Invalid value: "v3": unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported',
    "resources[0].providers[6].kms.cachesize: Invalid value: 0: cachesize should be a positive value, or negative to disable",
    "resources[1].resources: Required value: at least one resources[1].resources is required",
    "resources[1].providers: Required value: at least one resources[1].providers is required",
  ];

  it("gives kube's ValidateEncryptionConfiguration errors", () => {
    expect(errorsOf(readFileSync(dataFile, "utf8"))).toEqual(expected);
  });

  it("requires resources and accepts kube's documented forms", () => {
    expect(errorsOf(`${apiserver}kind: EncryptionConfiguration\n`)).toEqual([
      "resources: Required value: at least one resources is required",
    ]);
    const valid =
      `${apiserver}kind: EncryptionConfiguration\nresources:\n- resources: [secrets, configmaps, "*.apps"]\n  providers:\n` +
      "  - aescbc: {keys: [{name: k, secret: A/j5CnrWGB83ylcPkuUhm/6TSyrQtsNJtDPwPHNOj4Q=}]}\n  - identity: {}\n" +
      "- resources: ['*.*']\n  providers:\n  - kms: {apiVersion: v2, name: k2, endpoint: unix:///tmp/kms.sock}\n";
    expect(errorsOf(valid)).toEqual([]);
  });

  it("is what `kapi config validate` prints, as kube's aggregate", () => {
    const result = spawnSync(process.execPath, ["bin/kapi.js", "config", "validate", dataFile.pathname], {
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(`${dataFile.pathname}: EncryptionConfiguration: [${expected.join(", ")}]`);
  });
});

describe("admission plugin configurations", () => {
  it("EventRateLimit", () => {
    const doc =
      "apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\n" +
      "limits:\n- {type: Foo, qps: 0, burst: -1}\n- {type: Namespace, qps: 1, burst: 1, cacheSize: -2}\n";
    expect(errorsOf(doc)).toEqual([
      'limits[0].type: Unsupported value: "Foo": supported values: "Server", "Namespace", "User", "SourceAndObject"',
      "limits[0].burst: Invalid value: -1: must be positive",
      "limits[0].qps: Invalid value: 0: must be positive",
      "limits[1].cacheSize: Invalid value: -2: must not be negative",
    ]);
    expect(errorsOf("apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\n")).toEqual([
      "limits: Invalid value: null: must not be empty",
    ]);
  });

  it("PodTolerationRestriction", () => {
    const doc =
      "apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1\nkind: Configuration\n" +
      "default:\n- {key: k, operator: Exists, value: x}\n";
    expect(errorsOf(doc)).toEqual([
      "podtolerationrestriction.default[0].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists'",
    ]);
  });

  it("ResourceQuota", () => {
    expect(
      errorsOf(`${apiserver}kind: ResourceQuotaConfiguration\nlimitedResources:\n- {matchContains: [pods]}\n`),
    ).toEqual(["limitedResources[0].resource: Required value"]);
  });

  it("PodSecurity", () => {
    const doc =
      "apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\n" +
      "defaults: {enforce: strict, audit-version: v2.0}\n" +
      'exemptions: {usernames: ["", a, a], namespaces: [ok, ok], runtimeClasses: ["x..y"]}\n';
    const errors = errorsOf(doc);
    expect(errors.slice(0, 3)).toEqual([
      'defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted',
      'defaults.audit-version: Invalid value: "v2.0": must be "latest" or "v1.x"',
      'exemptions.namespaces[1]: Duplicate value: "ok"',
    ]);
    expect(errors[3]).toMatch(
      /^exemptions\.runtimeClasses\[0\]: Invalid value: "x\.\.y": a lowercase RFC 1123 subdomain/,
    );
    expect(errors.slice(4)).toEqual([
      'exemptions.usernames[0]: Invalid value: "": username must not be empty',
      'exemptions.usernames[2]: Duplicate value: "a"',
    ]);
  });
});

describe("durations", () => {
  const authz = (timeout: string) =>
    `${apiserver}kind: AuthorizationConfiguration\nauthorizers:\n- name: w\n  type: Webhook\n  webhook:\n    timeout: ${timeout}\n`;

  it("fail decoding with Go's time.ParseDuration texts", () => {
    const decodeError = (timeout: string) => thrown(() => decodeConfig(authz(timeout)));
    expect(decodeError("x")).toBe('time: invalid duration "x"');
    expect(decodeError('"5"')).toBe('time: missing unit in duration "5"');
    expect(decodeError("3x")).toBe('time: unknown unit "x" in duration "3x"');
    expect(decodeError("3")).toBe(
      "json: cannot unmarshal number into Go struct field WebhookConfiguration.authorizers.webhook.timeout of type string",
    );
  });

  it("print as Go prints them once defaulted", () => {
    const webhook = (read(authz("3000ms")).authorizers as { webhook: Record<string, unknown> }[])[0]?.webhook;
    expect(webhook?.timeout).toBe("3s");
    const scheduler = read(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nleaderElection: {leaseDuration: 90s, renewDeadline: 0.5m}\n",
    );
    expect(scheduler.leaderElection).toMatchObject({ leaseDuration: "1m30s", renewDeadline: "30s" });
  });
});

describe("KubeSchedulerConfiguration", () => {
  it("completes partly written blocks as SetDefaults_KubeSchedulerConfiguration does", () => {
    const object = read(`${scheduler}leaderElection: {leaderElect: true}\nclientConnection: {kubeconfig: /k}\n`);
    expect(object.leaderElection).toEqual({
      leaderElect: true,
      leaseDuration: "15s",
      renewDeadline: "10s",
      retryPeriod: "2s",
      resourceLock: "leases",
      resourceNamespace: "kube-system",
      resourceName: "kube-scheduler",
    });
    expect(object.clientConnection).toEqual({
      kubeconfig: "/k",
      contentType: "application/vnd.kubernetes.protobuf",
      qps: 50,
      burst: 100,
    });
  });

  it("names only a lone profile and merges each profile with the default plugins", () => {
    const defaults = read(scheduler);
    const defaultProfile = (defaults.profiles as Record<string, unknown>[])[0] ?? {};
    const lone = read(`${scheduler}profiles: [{}]\n`);
    expect(lone.profiles).toEqual([defaultProfile]);
    const two = read(
      `${scheduler}profiles:\n- schedulerName: a\n  plugins:\n    multiPoint:\n      enabled: [{name: TaintToleration, weight: 7}, {name: Custom}]\n      disabled: [{name: ImageLocality}]\n` +
        "  pluginConfig: [{name: VolumeBinding, args: {bindTimeoutSeconds: 30}}]\n- {}\n",
    );
    const [a, b] = two.profiles as Record<string, Record<string, Record<string, unknown>>>[];
    expect(b?.schedulerName).toBeUndefined();
    const multiPoint = a?.plugins?.multiPoint as { enabled: { name: string; weight?: number }[]; disabled: unknown };
    const defaultNames = (
      (defaultProfile.plugins as Record<string, { enabled: { name: string }[] }>).multiPoint?.enabled ?? []
    ).map((p) => p.name);
    expect(multiPoint.enabled.map((p) => p.name)).toEqual([
      ...defaultNames.filter((name) => name !== "ImageLocality"),
      "Custom",
    ]);
    expect(multiPoint.enabled.find((p) => p.name === "TaintToleration")).toEqual({
      name: "TaintToleration",
      weight: 7,
    });
    expect(multiPoint.disabled).toEqual([{ name: "ImageLocality" }]);
    const configs = a?.pluginConfig as unknown as { name: string; args: Record<string, unknown> }[];
    // The written config first, defaulted by its plugin's name; then the other args kinds, in name order.
    expect(configs[0]).toEqual({
      name: "VolumeBinding",
      args: { apiVersion: "kubescheduler.config.k8s.io/v1", kind: "VolumeBindingArgs", bindTimeoutSeconds: 30 },
    });
    expect(configs.slice(1).map((c) => c.name)).toEqual([
      "DefaultPreemption",
      "DynamicResources",
      "InterPodAffinity",
      "NodeAffinity",
      "NodeResourcesBalancedAllocation",
      "NodeResourcesFit",
      "PodTopologySpread",
    ]);
  });

  it("gives kube's texts for rules across fields, values included", () => {
    const errors = errorsOf(
      `${scheduler}podInitialBackoffSeconds: 20\n` +
        "leaderElection: {leaseDuration: 5s, renewDeadline: 10s, resourceLock: endpoints, retryPeriod: 0s}\n" +
        "profiles: [{schedulerName: a, plugins: {queueSort: {enabled: [{name: A}, {name: B}]}}}, {schedulerName: a}]\n" +
        "extenders:\n- {urlPrefix: a, prioritizeVerb: p, bindVerb: b, managedResources: [{name: example.com/x}]}\n" +
        "- {urlPrefix: b, bindVerb: b, managedResources: [{name: example.com/x}]}\n",
    );
    expect(errors).toEqual([
      'leaderElection.retryPeriod: Invalid value: "0s": must be greater than zero',
      'leaderElection.leaseDuration: Invalid value: "10s": must be greater than `RenewDeadline`',
      'leaderElection.resourceLock: Invalid value: "endpoints": resourceLock value must be "leases"',
      "profiles[1].schedulerName: Duplicate value: {}",
      "profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort plugin can be enabled",
      'profiles[1].plugins.queueSort: Invalid value: {"Enabled":null,"Disabled":null}: must be the same for all profiles',
      "podMaxBackoffSeconds: Invalid value: 10: must be greater than or equal to PodInitialBackoffSeconds",
      "extenders[0].weight: Invalid value: 0: must have a positive weight applied to it",
      'extenders[1].managedResources[0].name: Invalid value: "example.com/x": duplicate extender managed resource name',
      'extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind',
    ]);
  });
});

describe("per-component client defaults", () => {
  it("kube-proxy (5, 10) and the controller managers (20, 30) complete a partly written client block", () => {
    const proxy = read(
      "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nclientConnection: {qps: 0}\n",
    );
    expect(proxy.clientConnection).toMatchObject({ qps: 5, burst: 10 });
    for (const [group, kind] of [
      ["kubecontrollermanager.config.k8s.io", "KubeControllerManagerConfiguration"],
      ["cloudcontrollermanager.config.k8s.io", "CloudControllerManagerConfiguration"],
    ]) {
      const manager = read(`apiVersion: ${group}/v1alpha1\nkind: ${kind}\nGeneric: {ClientConnection: {burst: 7}}\n`);
      expect((manager.Generic as Record<string, unknown>).ClientConnection).toMatchObject({ qps: 20, burst: 7 });
    }
  });
});
