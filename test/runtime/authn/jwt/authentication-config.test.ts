import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkAuthenticationConfig,
  loadAuthenticationConfig,
  parseAuthenticationConfig,
} from "../../../../runtime/authn/jwt/authentication-config.js";
import { createServingCertificates } from "../../../../runtime/http/certificates.js";

const dir = mkdtempSync(join(tmpdir(), "kapi-authn-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n";

function document(jwt: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: "apiserver.config.k8s.io/v1",
    kind: "AuthenticationConfiguration",
    jwt,
    ...extra,
  });
}

/** A valid authenticator with some fields replaced. */
function authenticator(fields: Record<string, unknown> = {}, issuer: Record<string, unknown> = {}) {
  return {
    issuer: { url: "https://issuer.example.com", audiences: ["kapi"], ...issuer },
    claimMappings: { username: { claim: "sub", prefix: "" } },
    ...fields,
  };
}

/** The error checkAuthenticationConfig throws for a document, or "" when it is valid. */
function problem(text: string, disallowedIssuers: string[] = []): string {
  try {
    checkAuthenticationConfig(parseAuthenticationConfig(text), { disallowedIssuers });
    return "";
  } catch (error) {
    return (error as Error).message.replace(/^invalid authentication configuration: /, "");
  }
}

const emailRule =
  "claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression";

describe("AuthenticationConfiguration validation", () => {
  const cases: [string, unknown[], string][] = [
    ["a valid authenticator", [authenticator()], ""],
    ["no authenticators", [], ""],
    ["a missing issuer URL", [authenticator({}, { url: "" })], "jwt[0].issuer.url: Required value"],
    [
      "an http issuer",
      [authenticator({}, { url: "http://issuer" })],
      'jwt[0].issuer.url: Invalid value: "http://issuer": URL scheme must be https',
    ],
    [
      "a URL with user, query and fragment",
      [authenticator({}, { url: "https://u:p@issuer/?q=1#f" })],
      '[jwt[0].issuer.url: Invalid value: "https://u:p@issuer/?q=1#f": URL must not contain a username or password, jwt[0].issuer.url: Invalid value: "https://u:p@issuer/?q=1#f": URL must not contain a query, jwt[0].issuer.url: Invalid value: "https://u:p@issuer/?q=1#f": URL must not contain a fragment]',
    ],
    [
      "an unparsable URL",
      [authenticator({}, { url: "https://[::1" })],
      `jwt[0].issuer.url: Invalid value: "https://[::1": parse "https://[::1": missing ']' in host`,
    ],
    [
      "a discovery URL equal to the URL",
      [authenticator({}, { discoveryURL: "https://issuer.example.com/" })],
      'jwt[0].issuer.discoveryURL: Invalid value: "https://issuer.example.com/": discoveryURL must be different from URL',
    ],
    [
      "duplicate issuers and discovery URLs",
      [
        authenticator({}, { discoveryURL: "https://d.example.com/x" }),
        authenticator({}, { discoveryURL: "https://d.example.com/x" }),
      ],
      '[jwt[1].issuer.url: Duplicate value: "https://issuer.example.com", jwt[1].issuer.discoveryURL: Duplicate value: "https://d.example.com/x"]',
    ],
    [
      "no audiences",
      [authenticator({}, { audiences: [] })],
      "jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required",
    ],
    [
      "empty and duplicate audiences",
      [authenticator({}, { audiences: ["a", "", "a"], audienceMatchPolicy: "MatchAny" })],
      '[jwt[0].issuer.audiences[1]: Required value, jwt[0].issuer.audiences[2]: Duplicate value: "a"]',
    ],
    [
      "several audiences without MatchAny",
      [authenticator({}, { audiences: ["a", "b"] })],
      'jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences',
    ],
    [
      "an unknown policy for one audience",
      [authenticator({}, { audienceMatchPolicy: "MatchAll" })],
      'jwt[0].issuer.audienceMatchPolicy: Invalid value: "MatchAll": audienceMatchPolicy must be empty or MatchAny for single audience',
    ],
    [
      "a certificate authority without certificates",
      [authenticator({}, { certificateAuthority: "not a pem" })],
      'jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates',
    ],
    [
      "an unknown egress selector",
      [authenticator({}, { egressSelectorType: "etcd" })],
      'jwt[0].issuer.egressSelectorType: Invalid value: "etcd": egress selector must be either controlplane or cluster',
    ],
    [
      "a claim rule with claim and expression",
      [authenticator({ claimValidationRules: [{ claim: "hd", expression: "true" }] })],
      `jwt[0].claimValidationRules[0]: Invalid value: "hd": claim and expression can't both be set`,
    ],
    [
      "an empty claim rule",
      [authenticator({ claimValidationRules: [{}] })],
      "jwt[0].claimValidationRules[0]: Required value: claim or expression is required",
    ],
    [
      "a message with a claim, a required value with an expression, a repeated claim",
      [
        authenticator({
          claimValidationRules: [
            { claim: "hd", message: "m" },
            { expression: "true", requiredValue: "v" },
            { claim: "hd" },
          ],
        }),
      ],
      '[jwt[0].claimValidationRules[0].message: Invalid value: "m": may not be specified when claim is set, jwt[0].claimValidationRules[1].requiredValue: Invalid value: "v": may not be specified when expression is set, jwt[0].claimValidationRules[2].claim: Duplicate value: "hd"]',
    ],
    [
      "a claim rule that is not a bool",
      [authenticator({ claimValidationRules: [{ expression: "claims.hd" }] })],
      'jwt[0].claimValidationRules[0].expression: Invalid value: "claims.hd": must evaluate to bool',
    ],
    [
      "a claim rule that does not compile",
      [authenticator({ claimValidationRules: [{ expression: "foo.bar" }] })],
      "jwt[0].claimValidationRules[0].expression: Invalid value: \"foo.bar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo.bar\n | ^",
    ],
    [
      "a repeated claim rule expression",
      [authenticator({ claimValidationRules: [{ expression: "true" }, { expression: "true" }] })],
      'jwt[0].claimValidationRules[1].expression: Duplicate value: "true"',
    ],
    [
      "no username mapping",
      [authenticator({ claimMappings: {} })],
      "jwt[0].claimMappings.username: Required value: claim or expression is required",
    ],
    [
      "username claim and expression",
      [authenticator({ claimMappings: { username: { claim: "sub", expression: "claims.sub" } } })],
      `jwt[0].claimMappings.username: Invalid value: "": claim and expression can't both be set`,
    ],
    [
      "a username claim without prefix",
      [authenticator({ claimMappings: { username: { claim: "sub" } } })],
      "jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing",
    ],
    [
      "a prefix with an expression",
      [authenticator({ claimMappings: { username: { expression: "claims.sub", prefix: "p:" } } })],
      'jwt[0].claimMappings.username.prefix: Invalid value: "p:": may not be specified when expression is set',
    ],
    [
      "groups and uid with claim and expression",
      [
        authenticator({
          claimMappings: {
            username: { claim: "sub", prefix: "" },
            groups: { claim: "g", expression: "claims.g" },
            uid: { claim: "u", expression: "claims.u" },
          },
        }),
      ],
      `[jwt[0].claimMappings.groups: Invalid value: "": claim and expression can't both be set, jwt[0].claimMappings.uid: Invalid value: "": claim and expression can't both be set]`,
    ],
    [
      "a groups claim without prefix",
      [authenticator({ claimMappings: { username: { claim: "sub", prefix: "" }, groups: { claim: "groups" } } })],
      "jwt[0].claimMappings.groups.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing",
    ],
    [
      "a uid expression that does not compile",
      [authenticator({ claimMappings: { username: { claim: "sub", prefix: "" }, uid: { expression: "claims." } } })],
      "jwt[0].claimMappings.uid.expression: Invalid value: \"claims.\": compilation failed: ERROR: <input>:1:8: Syntax error: no viable alternative at input '.'\n | claims.\n | .......^",
    ],
    [
      "bad extra keys",
      [
        authenticator({
          claimMappings: {
            username: { claim: "sub", prefix: "" },
            extra: [
              { key: "foo", valueExpression: "claims.a" },
              { key: "example.org/Foo", valueExpression: "claims.a" },
              { key: "sub.k8s.io/x", valueExpression: "claims.a" },
              { key: "example.org/x", valueExpression: "claims.a" },
              { key: "example.org/x", valueExpression: "claims.b" },
              { key: "example.org/y" },
              { key: "", valueExpression: "claims.c" },
            ],
          },
        }),
      ],
      '[jwt[0].claimMappings.extra[0].key: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo"), jwt[0].claimMappings.extra[1].key: Invalid value: "example.org/Foo": must be lowercase, jwt[0].claimMappings.extra[2].key: Invalid value: "sub.k8s.io/x": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use, jwt[0].claimMappings.extra[4].key: Duplicate value: "example.org/x", jwt[0].claimMappings.extra[5].valueExpression: Required value, jwt[0].claimMappings.extra[6].key: Required value]',
    ],
    [
      "an email username without email_verified",
      [authenticator({ claimMappings: { username: { expression: "claims.email" } } })],
      `jwt[0].claimMappings.username.expression: Invalid value: "claims.email": ${emailRule}`,
    ],
    [
      "an optional email username without email_verified",
      [authenticator({ claimMappings: { username: { expression: "claims.?email.orValue('x')" } } })],
      `jwt[0].claimMappings.username.expression: Invalid value: "claims.?email.orValue('x')": ${emailRule}`,
    ],
    [
      "an email username checked by a claim rule",
      [
        authenticator({
          claimValidationRules: [{ expression: "claims.email_verified == true" }],
          claimMappings: { username: { expression: "claims.email" } },
        }),
      ],
      "",
    ],
    [
      "an email username checked in an extra mapping",
      [
        authenticator({
          claimMappings: {
            username: { expression: "has(claims.email) ? claims.email : claims.sub" },
            extra: [{ key: "example.org/v", valueExpression: "string(claims.email_verified)" }],
          },
        }),
      ],
      "",
    ],
    [
      "user rules: empty, repeated, not bool, claims not declared",
      [
        authenticator({
          userValidationRules: [
            { expression: "" },
            { expression: "user.uid != ''" },
            { expression: "user.uid != ''" },
            { expression: "user.username" },
            { expression: "claims.sub == ''" },
          ],
        }),
      ],
      "[jwt[0].userValidationRules[0].expression: Required value, jwt[0].userValidationRules[2].expression: Duplicate value: \"user.uid != ''\", jwt[0].userValidationRules[3].expression: Invalid value: \"user.username\": must evaluate to bool, jwt[0].userValidationRules[4].expression: Invalid value: \"claims.sub == ''\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'claims' (in container '')\n | claims.sub == ''\n | ^]",
    ],
  ];

  it.each(cases)("%s", (_name, jwt, want) => {
    expect(problem(document(jwt))).toBe(want);
  });

  it("accepts a real certificate authority", () => {
    const { caCert } = createServingCertificates({ dns: ["localhost"], ips: [] });
    expect(problem(document([authenticator({}, { certificateAuthority: caCert })]))).toBe("");
  });

  it("refuses the service account issuers and more than 64 authenticators", () => {
    expect(problem(document([authenticator()]), ["b", "https://issuer.example.com", "a"])).toBe(
      'jwt[0].issuer.url: Invalid value: "https://issuer.example.com": URL must not overlap with disallowed issuers: [a b https://issuer.example.com]',
    );
    const many = Array.from({ length: 65 }, (_, i) => authenticator({}, { url: `https://i${i}.example.com` }));
    expect(problem(document(many))).toBe("jwt: Too many: 65: must have at most 64 items");
  });

  it("checks the anonymous section", () => {
    const anonymous = { enabled: false, conditions: [{ path: "/livez" }, { path: "/readyz" }] };
    expect(problem(document([], { anonymous }))).toBe(
      'anonymous.conditions: Invalid value: []apiserver.AnonymousAuthCondition{apiserver.AnonymousAuthCondition{Path:"/livez"}, apiserver.AnonymousAuthCondition{Path:"/readyz"}}: enabled should be set to true when conditions are defined',
    );
    const config = parseAuthenticationConfig(`${header}anonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n`);
    expect(config).toEqual({ jwt: [], anonymous: { enabled: true, conditions: [{ path: "/livez" }] } });
  });
});

describe("AuthenticationConfiguration decoding", () => {
  it("reads YAML in every version kube accepts, with Go's zero values", () => {
    for (const version of ["v1", "v1beta1", "v1alpha1"]) {
      const text = `apiVersion: apiserver.config.k8s.io/${version}
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://issuer.example.com
    audiences: [kapi]
  claimMappings:
    username:
      claim: sub
      prefix: ""
`;
      expect(parseAuthenticationConfig(text)).toEqual({
        jwt: [
          {
            issuer: {
              url: "https://issuer.example.com",
              discoveryURL: "",
              certificateAuthority: "",
              audiences: ["kapi"],
              audienceMatchPolicy: "",
              egressSelectorType: "",
            },
            claimValidationRules: [],
            claimMappings: {
              username: { claim: "sub", prefix: "", expression: "" },
              groups: { claim: "", expression: "" },
              uid: { claim: "", expression: "" },
              extra: [],
            },
            userValidationRules: [],
          },
        ],
      });
    }
  });

  const failures: [string, string, string][] = [
    ["an empty file", "", "empty config data"],
    [
      "no kind",
      "apiVersion: apiserver.config.k8s.io/v1\n",
      "Object 'Kind' is missing in 'apiVersion: apiserver.config.k8s.io/v1\n'",
    ],
    [
      "no apiVersion",
      "kind: AuthenticationConfiguration\n",
      "Object 'apiVersion' is missing in 'kind: AuthenticationConfiguration\n'",
    ],
    [
      "an unknown version",
      "apiVersion: apiserver.config.k8s.io/v2\nkind: AuthenticationConfiguration\n",
      'no kind "AuthenticationConfiguration" is registered for version "apiserver.config.k8s.io/v2" in scheme "pkg/kubeapiserver/options/authentication.go:879"',
    ],
    [
      "another kind of the group",
      "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n",
      "expected AuthenticationConfiguration, got *apiserver.AuthorizationConfiguration",
    ],
    [
      "unknown fields",
      `${header}jwt:\n- issuer:\n    url: https://x\n    URL: https://y\n  foo: 1\nbar: true\n`,
      // kube-apiserver v1.36.2 lists them in the order of the JSON its YAML becomes (sorted keys).
      'strict decoding error: unknown field "bar", unknown field "jwt[0].foo", unknown field "jwt[0].issuer.URL"',
    ],
    [
      "a value of the wrong type",
      `${header}jwt:\n- issuer:\n    audiences: kapi\n`,
      "json: cannot unmarshal string into Go struct field Issuer.jwt.issuer.audiences of type []string",
    ],
    [
      "a wrong type in a list",
      `${header}jwt:\n- claimValidationRules: {}\n`,
      "json: cannot unmarshal object into Go struct field JWTAuthenticator.jwt.claimValidationRules of type []v1.ClaimValidationRule",
    ],
    [
      "a repeated key",
      `${header}jwt:\n- issuer:\n    url: https://x\n    url: https://y\n`,
      'strict decoding error: yaml: unmarshal errors:\n  line 6: key "url" already set in map',
    ],
  ];

  it.each(failures)("refuses %s", (_name, text, want) => {
    expect(() => parseAuthenticationConfig(text)).toThrow(want);
    try {
      parseAuthenticationConfig(text);
    } catch (error) {
      expect((error as Error).message).toBe(want);
    }
  });
});

describe("loadAuthenticationConfig", () => {
  it("reads, decodes and validates the file, wording failures as kube-apiserver", () => {
    const good = join(dir, "good.yaml");
    writeFileSync(good, document([authenticator()]));
    expect(loadAuthenticationConfig(good).configuration.jwt[0]?.issuer.url).toBe("https://issuer.example.com");

    const missing = join(dir, "missing.yaml");
    expect(() => loadAuthenticationConfig(missing)).toThrow(
      `failed to load authentication configuration from file "${missing}": open ${missing}: no such file or directory`,
    );
    const undecodable = join(dir, "bad.yaml");
    writeFileSync(undecodable, `${header}foo: 1\n`);
    expect(() => loadAuthenticationConfig(undecodable)).toThrow(
      `failed to load authentication configuration from file "${undecodable}": strict decoding error: unknown field "foo"`,
    );
    const invalid = join(dir, "invalid.yaml");
    writeFileSync(invalid, document([authenticator({}, { url: "http://x" })]));
    expect(() => loadAuthenticationConfig(invalid)).toThrow(
      'invalid authentication configuration: jwt[0].issuer.url: Invalid value: "http://x": URL scheme must be https',
    );
  });
});
