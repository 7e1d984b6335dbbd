import { describe, expect, it } from "vitest";
import { parseServeFlags } from "../../../runtime/cli/serve-flags.js";

describe("parseServeFlags", () => {
  it("gives kapi's defaults without flags", () => {
    expect(parseServeFlags([])).toEqual({
      securePort: 6443,
      bindAddress: "127.0.0.1",
      dataDir: "./kapi-data",
      plainHttp: false,
      storage: "sqlite",
    });
  });

  it("reads kube-apiserver's request and shutdown bounds", () => {
    const options = parseServeFlags([
      "--max-requests-inflight=10",
      "--max-mutating-requests-inflight",
      "0",
      "--request-timeout=1m30s",
      "--min-request-timeout=60",
      "--shutdown-delay-duration=5s",
      "--v=4",
    ]);
    expect(options.limits).toEqual({
      maxRequestsInflight: 10,
      maxMutatingRequestsInflight: 0,
      requestTimeoutMs: 90_000,
      minRequestTimeoutSeconds: 60,
      shutdownDelayMs: 5_000,
    });
    expect(options.verbosity).toBe(4);
    expect(() => parseServeFlags(["--max-requests-inflight=many"])).toThrow(
      'invalid argument "many" for "--max-requests-inflight" flag: strconv.ParseInt: parsing "many": invalid syntax',
    );
    expect(() => parseServeFlags(["--request-timeout=soon"])).toThrow(
      'invalid argument "soon" for "--request-timeout" flag: time: invalid duration "soon"',
    );
  });

  it("reads kube-apiserver's authentication flags in both forms, lists and durations", () => {
    const options = parseServeFlags([
      "--anonymous-auth=false",
      "--client-ca-file",
      "/etc/ca.crt",
      "--token-auth-file=/etc/tokens.csv",
      "--enable-bootstrap-token-auth",
      "--service-account-issuer=https://a.example,https://b.example",
      "--service-account-issuer=https://c.example",
      "--service-account-key-file=/k1.pem",
      "--service-account-max-token-expiration=48h",
      "--service-account-lookup",
      "false",
      "--requestheader-client-ca-file=/proxy-ca.crt",
      "--requestheader-username-headers=X-Remote-User",
      "--requestheader-group-headers=X-Remote-Group",
      "--authentication-token-webhook-config-file=/webhook.kubeconfig",
      "--authentication-token-webhook-cache-ttl=30s",
    ]);
    expect(options.authentication).toEqual({
      anonymousAuth: false,
      clientCaFile: "/etc/ca.crt",
      tokenAuthFile: "/etc/tokens.csv",
      enableBootstrapTokenAuth: true,
      serviceAccountIssuer: ["https://a.example", "https://b.example", "https://c.example"],
      serviceAccountKeyFile: ["/k1.pem"],
      serviceAccountMaxTokenExpiration: 172800,
      serviceAccountLookup: false,
      requestHeader: {
        clientCaFile: "/proxy-ca.crt",
        allowedNames: [],
        usernameHeaders: ["X-Remote-User"],
        uidHeaders: [],
        groupHeaders: ["X-Remote-Group"],
        extraHeadersPrefix: [],
      },
      tokenWebhook: { configFile: "/webhook.kubeconfig", cacheTtlMs: 30000 },
    });
  });

  it("reads the authorization flags and the controller selection", () => {
    const options = parseServeFlags([
      "--authorization-mode=Node,RBAC,Webhook",
      "--authorization-webhook-config-file=/authz.kubeconfig",
      "--authorization-webhook-cache-authorized-ttl=1m",
      "--controllers=*,bootstrapsigner,-garbagecollector",
    ]);
    expect(options.authorization).toEqual({
      authorizationMode: "Node,RBAC,Webhook",
      authorizationWebhookConfigFile: "/authz.kubeconfig",
      authorizationWebhookCacheAuthorizedTtl: "1m",
    });
    expect(options.controllers).toEqual(["*", "bootstrap-signer-controller", "-garbage-collector-controller"]);
  });

  it("refuses bad values with kube's words", () => {
    expect(() => parseServeFlags(["--anonymous-auth=maybe"])).toThrow(
      'invalid argument "maybe" for "--anonymous-auth" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    expect(() => parseServeFlags(["--controllers=nope"])).toThrow('"nope" is not in the list of known controllers');
    expect(() => parseServeFlags(["--service-account-max-token-expiration=soon"])).toThrow(
      'invalid argument "soon" for "--service-account-max-token-expiration" flag',
    );
    expect(() => parseServeFlags(["--no-such-flag"])).toThrow();
  });

  it("reads kube-apiserver's admission flags", () => {
    expect(
      parseServeFlags([
        "--enable-admission-plugins=AlwaysDeny,NamespaceExists",
        "--enable-admission-plugins",
        "EventRateLimit",
        "--disable-admission-plugins=NamespaceLifecycle",
        "--admission-control-config-file=/etc/kapi/admission.yaml",
      ]).admission,
    ).toEqual({
      enablePlugins: ["AlwaysDeny", "NamespaceExists", "EventRateLimit"],
      disablePlugins: ["NamespaceLifecycle"],
      configFile: "/etc/kapi/admission.yaml",
    });
    expect(parseServeFlags(["--admission-control=NamespaceLifecycle"]).admission).toEqual({
      admissionControl: ["NamespaceLifecycle"],
    });
  });
});
