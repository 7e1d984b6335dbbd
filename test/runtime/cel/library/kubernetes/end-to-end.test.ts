// Kubernetes' libraries through the whole engine: parse, check, plan, evaluate; and cel-spec's
// network_ext conformance file with the IP and CIDR libraries.
import type { JsonObject } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import type { Attributes } from "../../../../../runtime/access/authorizer.js";
import { CelIssues } from "../../../../../runtime/cel/common/issues.js";
import { CelError, CelList, CelMap, type CelValue } from "../../../../../runtime/cel/common/values.js";
import { CelEnv } from "../../../../../runtime/cel/env.js";
import {
  AuthorizerType,
  authorizerLibrary,
  authorizerSelectorsLibrary,
  newAuthorizerValue,
} from "../../../../../runtime/cel/library/kubernetes/authorizer-library.js";
import { cidrLibrary } from "../../../../../runtime/cel/library/kubernetes/cidr.js";
import { ipLibrary } from "../../../../../runtime/cel/library/kubernetes/ip.js";
import { quantityLibrary } from "../../../../../runtime/cel/library/kubernetes/quantity-library.js";
import { semverLibrary } from "../../../../../runtime/cel/library/kubernetes/semver.js";
import { urlLibrary } from "../../../../../runtime/cel/library/kubernetes/url.js";
import { standardLibrary } from "../../../../../runtime/cel/library/standard.js";
import { runCase } from "../../conformance/runner.js";
import { caseKey, textprotoSource } from "../../conformance/suite.js";

const checks: Attributes[] = [];
const authorizer = newAuthorizerValue(
  {
    authorize(attributes) {
      checks.push(attributes);
      const allowed = attributes.resource === "pods" && attributes.namespace === "default";
      return allowed ? { decision: "allow", reason: "RBAC: allowed" } : { decision: "deny", reason: "RBAC: denied" };
    },
  },
  { name: "alice", groups: [] },
);

const env = new CelEnv({
  libraries: [
    standardLibrary,
    urlLibrary,
    quantityLibrary,
    ipLibrary,
    cidrLibrary,
    semverLibrary,
    authorizerLibrary,
    authorizerSelectorsLibrary,
  ],
  variables: [{ name: "authorizer", type: AuthorizerType }],
});

function evaluate(source: string): { value: CelValue; cost: number } {
  const ast = env.compile(source);
  if (ast instanceof CelIssues) throw new Error(ast.toDisplayString());
  return env.program(ast).eval((name) => (name === "authorizer" ? authorizer : undefined));
}

/** A CEL value as plain JS for comparison: lists as arrays, maps as objects. */
function plain(v: CelValue): unknown {
  if (v instanceof CelError) return { error: v.message };
  if (v instanceof CelList) return v.toArray().map(plain);
  if (v instanceof CelMap) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), plain(x)]));
  return v;
}

describe("Kubernetes libraries end to end", () => {
  it.each<[string, unknown]>([
    ["isURL('https://user:pass@example.com:80/path?query=val#fragment')", true],
    ["isURL('../relative-path')", false],
    ["url('https://example.com:80/').getHost()", "example.com:80"],
    ["url('https://[::1]:80/').getHostname()", "::1"],
    ["url('https://example.com/path with spaces/').getEscapedPath()", "/path%20with%20spaces/"],
    ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", { k1: ["a"], k2: ["b", "c"] }],
    ["url('/path').getScheme() == '' && url('/path').getPort() == ''", true],
    ["url('https://example.com/a b') == url('https://example.com/a%20b')", true],
    ["type(url('/a')) == kubernetes.URL", true],
    ["url('../x')", { error: 'URL parse error during conversion from string: parse "../x": invalid URI for request' }],
    ["quantity('200M') == quantity('0.2G')", true],
    ["quantity('50k').add(20).sub(quantity('100k')).sub(-50000).asInteger()", 20n],
    ["quantity('50M').compareTo(quantity('50Mi'))", -1n],
    ["quantity('50.703k').asApproximateFloat()", 50703],
    ["sign(quantity('-1m'))", -1n],
    ["isQuantity('200K')", false],
    ["quantity('9999999999999999999999999999999999999G').isInteger()", false],
    ["quantity('9999999999999999999999999999999999999G').asInteger()", { error: "cannot convert value to integer" }],
    ["ip('127.0.0.1').family() == 4 && ip('::1').family() == 6", true],
    ["string(ip('2001:DB8::68'))", "2001:db8::68"],
    ["cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')", true],
    ["cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", true],
    ["cidr('10.0.0.0/8').containsIP('10.1.2.3')", true],
    ["cidr('192.168.0.0/24').ip().isGlobalUnicast()", true],
    ["string(cidr('2001:db8::/32'))", "2001:db8::/32"],
    ["type(ip('::1')) == net.IP && type(cidr('::/0')) == net.CIDR", true],
    ["semver('1.2.3').isLessThan(semver('1.10.0'))", true],
    ["semver('v1.0', true).major()", 1n],
    ["isSemver('v1.0.0')", false],
    ["semver('1.0.0-alpha').compareTo(semver('1.0.0'))", -1n],
    ["semver('1.0.0+a') == semver('1.0.0+b')", true],
    ["authorizer.group('').resource('pods').namespace('default').check('create').allowed()", true],
    ["authorizer.group('apps').resource('deployments').check('list').reason()", "RBAC: denied"],
    ["authorizer.path('/healthz').check('GET').errored()", false],
    [
      "authorizer.serviceAccount('default', 'x').group('').resource('pods').namespace('default').check('get').error()",
      "",
    ],
    [
      "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n').labelSelector('a=b').check('list').allowed()",
      false,
    ],
  ])("%s", (source, expected) => {
    expect(plain(evaluate(source).value)).toEqual(expected);
  });

  it("refuses member-style sign() and isIP() of a CIDR at check time, as cel-go does", () => {
    expect(env.compile("quantity('1').sign()")).toBeInstanceOf(CelIssues);
    const issues = env.compile("isIP(cidr('192.168.0.0/24'))");
    expect(issues).toBeInstanceOf(CelIssues);
    expect((issues as CelIssues).toDisplayString()).toContain(
      "found no matching overload for 'isIP' applied to '(net.CIDR)'",
    );
  });

  it("charges an authorization check 350000", () => {
    const { cost } = evaluate("authorizer.path('/healthz').check('GET').allowed()");
    expect(cost).toBeGreaterThanOrEqual(350000);
    expect(cost).toBeLessThan(350010);
  });

  it("charges url() by the length of its argument at run time", () => {
    const short = evaluate("url('/a')").cost;
    const long = evaluate(`url('/${"a".repeat(200)}')`).cost;
    expect(long - short).toBe(20);
  });
});

/**
 * The corpus accepts the hexadecimal IPv4-mapped form `::ffff:c0a8:1` as equal to 192.168.0.1, while
 * Kubernetes (and cel-go's ext.Network) refuse every IPv4-mapped IPv6 address; kapi follows Kubernetes.
 */
const KUBERNETES_DIFFERS = new Map([
  ["network_ext/ipv4/ipv4_equals_ipv6", "::ffff:c0a8:1"],
  ["network_ext/ipv4/ipv4_not_equals_ipv6", "::ffff:c0a8:1"],
]);

const corpus = textprotoSource();

function expectedErrorMessage(test: JsonObject): string {
  const errors = ((test.evalError as JsonObject | undefined)?.errors ?? []) as JsonObject[];
  return String(errors[0]?.message ?? "<no expected error>");
}

describe.skipIf(corpus === undefined)("cel-spec network_ext conformance", () => {
  const cases = corpus?.files.get("network_ext") ?? [];
  const libraries = [standardLibrary, ipLibrary, cidrLibrary];

  it.each(cases.map((c) => [caseKey(c), c] as const))("%s", (key, c) => {
    const mapped = KUBERNETES_DIFFERS.get(key);
    if (mapped !== undefined) {
      const { value } = evaluate(c.test.expr);
      expect(plain(value)).toEqual({ error: `IPv4-mapped IPv6 address "${mapped}" is not allowed` });
      return;
    }
    const outcome = runCase(c, libraries);
    if (outcome.status === "fail" && outcome.phase === "check") {
      // The corpus writes a type-check failure as an evaluation error; cel-go refuses the call when checking.
      expect(outcome.actual).toContain(expectedErrorMessage(c.test));
      return;
    }
    expect(outcome).toMatchObject({ status: "pass" });
  });
});
