// From a verified token's claims to the user, as kube's jwtAuthenticator does it after verification:
// username, groups, uid and extra (claim or CEL), then the required claims and CEL claim validation rules,
// then the user validation rules; every failure an AuthenticationError with kube's text.

import { AuthenticationError } from "../../access/authenticator.js";
import type { UserInfo } from "../../access/user-info.js";
import { jsonToCel } from "../../cel/common/json-to-cel.js";
import { CelList, type CelValue } from "../../cel/common/values.js";
import type { JWTAuthenticator } from "./authentication-configuration.js";
import { type CompiledClaimExpression, evaluateClaimExpression, userValue } from "./claim-environment.js";
import { jsonKind } from "./id-token.js";
import type { CompiledJwtRules } from "./validate-authentication-config.js";

/** The extra key of the credential's identity (its `jti`), for audit. */
export const credentialIdKey = "authentication.kubernetes.io/credential-id";

type Claims = Readonly<Record<string, unknown>>;

function fail(message: string): never {
  throw new AuthenticationError(message);
}

/** encoding/json decoding one claim into a Go string: null reads as "". */
function claimString(value: unknown): { value: string } | { error: string } {
  if (value === null) return { value: "" };
  if (typeof value === "string") return { value };
  return { error: `json: cannot unmarshal ${jsonKind(value)} into Go value of type string` };
}

function has(claims: Claims, name: string): boolean {
  return Object.hasOwn(claims, name);
}

function evaluate(expression: CompiledClaimExpression, input: CelValue, prefix: string): CelValue {
  const result = evaluateClaimExpression(expression, input);
  if ("error" in result) fail(`${prefix}${result.error}`);
  return result.value;
}

/** kube's convertCELValueToStringList: "", [] and null are absent; empty strings in a list are dropped. */
function stringList(value: CelValue): string[] | undefined {
  if (value === null) return [];
  if (typeof value === "string") return value === "" ? [] : [value];
  if (!(value instanceof CelList)) return undefined;
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== "string") return undefined;
    if (item !== "") out.push(item);
  }
  return out;
}

function username(config: JWTAuthenticator, rules: CompiledJwtRules, claims: Claims, input: () => CelValue): string {
  if (rules.username !== undefined) {
    const prefix = "oidc: error evaluating username claim expression: ";
    const value = evaluate(rules.username, input(), prefix);
    if (typeof value !== "string") fail(`${prefix}username claim expression must return a string`);
    if (value === "") fail("oidc: empty username via CEL expression is not allowed");
    return value;
  }
  const { claim, prefix } = config.claimMappings.username;
  if (!has(claims, claim)) fail(`oidc: parse username claims "${claim}": claim not present`);
  const parsed = claimString(claims[claim]);
  if ("error" in parsed) fail(`oidc: parse username claims "${claim}": ${parsed.error}`);
  if (claim === "email" && has(claims, "email_verified")) {
    // OpenID Connect: an email whose owner the issuer has not verified names nobody.
    const verified = claims.email_verified;
    if (verified !== null && typeof verified !== "boolean") {
      fail(
        `oidc: parse 'email_verified' claim: json: cannot unmarshal ${jsonKind(verified)} into Go value of type bool`,
      );
    }
    if (verified !== true) fail("oidc: email not verified");
  }
  return `${prefix ?? ""}${parsed.value}`;
}

function groups(config: JWTAuthenticator, rules: CompiledJwtRules, claims: Claims, input: () => CelValue): string[] {
  const { claim, prefix } = config.claimMappings.groups;
  if (claim !== "" && has(claims, claim)) {
    // A single string is one group (kubernetes#33290).
    const value = claims[claim];
    let names: string[];
    if (value === null) names = [];
    else if (Array.isArray(value) && value.every((v) => typeof v === "string" || v === null)) {
      names = value.map((v) => (typeof v === "string" ? v : ""));
    } else if (typeof value === "string") names = [value];
    else
      fail(
        `oidc: parse groups claim "${claim}": json: cannot unmarshal ${jsonKind(value)} into Go value of type string`,
      );
    return names.map((name) => `${prefix ?? ""}${name}`);
  }
  if (rules.groups === undefined) return [];
  const prefixText = "oidc: error evaluating group claim expression: ";
  const list = stringList(evaluate(rules.groups, input(), prefixText));
  if (list === undefined) fail(`${prefixText}expression must return a string or a list of strings`);
  return list;
}

function uid(config: JWTAuthenticator, rules: CompiledJwtRules, claims: Claims, input: () => CelValue): string {
  const { claim } = config.claimMappings.uid;
  if (claim !== "") {
    if (!has(claims, claim)) fail(`oidc: parse uid claim "${claim}": claim not present`);
    const parsed = claimString(claims[claim]);
    if ("error" in parsed) fail(`oidc: parse uid claim "${claim}": ${parsed.error}`);
    return parsed.value;
  }
  if (rules.uid === undefined) return "";
  const prefix = "oidc: error evaluating uid claim expression: ";
  const value = evaluate(rules.uid, input(), prefix);
  if (typeof value !== "string") fail(`${prefix}uid claim expression must return a string`);
  return value;
}

function extra(rules: CompiledJwtRules, claims: Claims, input: () => CelValue): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const jti = claims.jti;
  if (typeof jti === "string" && jti !== "") out[credentialIdKey] = [`JTI=${jti}`];
  // All expressions run before any result is converted, as kube evaluates them together.
  const values = rules.extra.map(({ expression }) => evaluate(expression, input(), ""));
  rules.extra.forEach(({ key, expression }, i) => {
    const list = stringList(values[i] ?? null);
    if (list === undefined) {
      fail(
        `oidc: error evaluating extra claim expression: ${expression.source}: expression must return a string or a list of strings`,
      );
    }
    if (list.length > 0) out[key] = list;
  });
  return out;
}

function checkRequiredClaims(config: JWTAuthenticator, claims: Claims): void {
  for (const rule of config.claimValidationRules) {
    if (rule.claim === "") continue;
    if (!has(claims, rule.claim)) fail(`oidc: required claim ${rule.claim} not present in ID token`);
    const parsed = claimString(claims[rule.claim]);
    if ("error" in parsed) fail(`oidc: parse claim ${rule.claim}: ${parsed.error}`);
    if (parsed.value !== rule.requiredValue) {
      fail(
        `oidc: required claim ${rule.claim} value does not match. Got = ${parsed.value}, want = ${rule.requiredValue}`,
      );
    }
  }
}

function checkRules(
  rules: readonly { expression: CompiledClaimExpression; message: string }[],
  input: CelValue,
  prefix: string,
): void {
  const values = rules.map(({ expression }) => evaluate(expression, input, prefix));
  rules.forEach(({ expression, message }, i) => {
    const value = values[i];
    if (typeof value !== "boolean") fail(`${prefix}validation expression must return a boolean`);
    if (!value) fail(`${prefix}validation expression '${expression.source}' failed: ${message}`);
  });
}

/** The user a verified token's claims map to; throws AuthenticationError. */
export function userFromClaims(config: JWTAuthenticator, rules: CompiledJwtRules, claims: Claims): UserInfo {
  let celClaims: CelValue | undefined;
  const input = () => {
    celClaims ??= jsonToCel(claims);
    return celClaims;
  };
  const user: UserInfo = { name: username(config, rules, claims, input), groups: groups(config, rules, claims, input) };
  const id = uid(config, rules, claims, input);
  if (id !== "") user.uid = id;
  const extras = extra(rules, claims, input);
  if (Object.keys(extras).length > 0) user.extra = extras;
  checkRequiredClaims(config, claims);
  checkRules(rules.claimValidationRules, input(), "oidc: error evaluating claim validation expression: ");
  checkRules(rules.userValidationRules, userValue(user), "oidc: error evaluating user info validation rule: ");
  return user;
}
