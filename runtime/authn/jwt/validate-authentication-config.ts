// kube's validation of an AuthenticationConfiguration (k8s.io/apiserver/pkg/apis/apiserver/validation):
// the issuer (https URL, discovery URL, audiences and their match policy, CA), claim validation rules,
// claim mappings (claim or expression, prefixes, extra keys) and user validation rules, compiling every
// CEL expression on the way. The compiled expressions are what a JWT authenticator runs.
import { X509Certificate } from "node:crypto";
import { parseURL } from "../../cel/library/kubernetes/go-url.js";
import { duplicate, type FieldError, invalid, required, tooMany } from "../../errors/field-error.js";
import { child, index } from "../../errors/field-path.js";
import { goQuote } from "../../errors/go-format.js";
import { dnsSubdomainErrors } from "../../validation/name-formats.js";
import type {
  AnonymousAuthConfig,
  AuthenticationConfiguration,
  ClaimMappings,
  ClaimValidationRule,
  Issuer,
  JWTAuthenticator,
  PrefixedClaimOrExpression,
  UserValidationRule,
} from "./authentication-configuration.js";
import { type CompiledClaimExpression, compileClaimExpression, selectsClaim } from "./claim-environment.js";

/** The CEL a JWT authenticator runs, compiled once. */
export interface CompiledJwtRules {
  username?: CompiledClaimExpression;
  groups?: CompiledClaimExpression;
  uid?: CompiledClaimExpression;
  extra: { key: string; expression: CompiledClaimExpression }[];
  claimValidationRules: { expression: CompiledClaimExpression; message: string }[];
  userValidationRules: { expression: CompiledClaimExpression; message: string }[];
}

/** What the email_verified rule needs to know after the mappings and rules are compiled. */
interface State {
  rules: CompiledJwtRules;
  usesEmail: boolean;
  usesEmailVerified: boolean;
}

const maxAuthenticators = 64;

function compile(
  errors: FieldError[],
  path: string,
  source: string,
  variable: "claims" | "user",
  result: "bool" | "any",
): CompiledClaimExpression | undefined {
  const compiled = compileClaimExpression(source, variable, result);
  if ("detail" in compiled) {
    errors.push(invalid(path, source, compiled.detail));
    return undefined;
  }
  return compiled;
}

function validateURL(url: string, disallowed: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (disallowed.includes(url)) {
    const list = [...new Set(disallowed)].sort().join(" ");
    errors.push(invalid(path, url, `URL must not overlap with disallowed issuers: [${list}]`));
  }
  const parsed = parseURL(url);
  if (!parsed.ok) return [...errors, invalid(path, url, parsed.error)];
  if (parsed.url.scheme !== "https") errors.push(invalid(path, url, "URL scheme must be https"));
  if (parsed.url.user !== undefined) errors.push(invalid(path, url, "URL must not contain a username or password"));
  if (parsed.url.rawQuery !== "") errors.push(invalid(path, url, "URL must not contain a query"));
  if (parsed.url.fragment !== "") errors.push(invalid(path, url, "URL must not contain a fragment"));
  return errors;
}

const trimSlashes = (s: string) => s.replace(/\/+$/, "");

/** client-go's cert.NewPoolFromBytes: at least one parsable CERTIFICATE block. */
function certificateAuthorityError(pem: string): string | undefined {
  let found = false;
  for (const block of pem.matchAll(/-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/g)) {
    const [, type, body = ""] = block;
    if (type !== "CERTIFICATE" || body.includes(":")) continue;
    try {
      new X509Certificate(Buffer.from(body.replace(/\s+/g, ""), "base64"));
    } catch {
      return "x509: malformed certificate";
    }
    found = true;
  }
  return found ? undefined : "data does not contain any valid RSA or ECDSA certificates";
}

function validateIssuer(issuer: Issuer, disallowed: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const urlPath = child(path, "url");
  if (issuer.url === "") errors.push(required(urlPath));
  else errors.push(...validateURL(issuer.url, disallowed, urlPath));

  const discoveryPath = child(path, "discoveryURL");
  if (issuer.discoveryURL !== "") {
    if (issuer.url !== "" && trimSlashes(issuer.url) === trimSlashes(issuer.discoveryURL)) {
      errors.push(invalid(discoveryPath, issuer.discoveryURL, "discoveryURL must be different from URL"));
    }
    errors.push(...validateURL(issuer.discoveryURL, [], discoveryPath));
  }

  const audiencesPath = child(path, "audiences");
  const policyPath = child(path, "audienceMatchPolicy");
  const policy = issuer.audienceMatchPolicy;
  if (issuer.audiences.length === 0) {
    errors.push(required(audiencesPath, `at least one ${audiencesPath} is required`));
  } else {
    const seen = new Set<string>();
    issuer.audiences.forEach((audience, i) => {
      if (audience === "") errors.push(required(index(audiencesPath, i)));
      if (seen.has(audience)) errors.push(duplicate(index(audiencesPath, i), audience));
      seen.add(audience);
    });
    if (issuer.audiences.length > 1 && policy !== "MatchAny") {
      errors.push(invalid(policyPath, policy, "audienceMatchPolicy must be MatchAny for multiple audiences"));
    }
    if (issuer.audiences.length === 1 && policy !== "" && policy !== "MatchAny") {
      errors.push(invalid(policyPath, policy, "audienceMatchPolicy must be empty or MatchAny for single audience"));
    }
  }

  if (issuer.certificateAuthority !== "") {
    const problem = certificateAuthorityError(issuer.certificateAuthority);
    if (problem !== undefined) errors.push(invalid(child(path, "certificateAuthority"), "<omitted>", problem));
  }

  const egress = issuer.egressSelectorType;
  if (egress !== "" && egress !== "controlplane" && egress !== "cluster") {
    errors.push(
      invalid(child(path, "egressSelectorType"), egress, "egress selector must be either controlplane or cluster"),
    );
  }
  return errors;
}

function validateClaimValidationRules(rules: readonly ClaimValidationRule[], state: State, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const claims = new Set<string>();
  const expressions = new Set<string>();
  rules.forEach((rule, i) => {
    const rulePath = index(path, i);
    if (rule.claim !== "" && rule.expression !== "") {
      errors.push(invalid(rulePath, rule.claim, "claim and expression can't both be set"));
    } else if (rule.claim === "" && rule.expression === "") {
      errors.push(required(rulePath, "claim or expression is required"));
    } else if (rule.claim !== "") {
      if (rule.message !== "") {
        errors.push(invalid(child(rulePath, "message"), rule.message, "may not be specified when claim is set"));
      }
      if (claims.has(rule.claim)) errors.push(duplicate(child(rulePath, "claim"), rule.claim));
      claims.add(rule.claim);
    } else {
      if (rule.requiredValue !== "") {
        const detail = "may not be specified when expression is set";
        errors.push(invalid(child(rulePath, "requiredValue"), rule.requiredValue, detail));
      }
      const expressionPath = child(rulePath, "expression");
      if (expressions.has(rule.expression)) {
        errors.push(duplicate(expressionPath, rule.expression));
        return;
      }
      expressions.add(rule.expression);
      const expression = compile(errors, expressionPath, rule.expression, "claims", "bool");
      if (expression === undefined) return;
      state.rules.claimValidationRules.push({ expression, message: rule.message });
      state.usesEmailVerified ||= selectsClaim(expression.ast.expr, "email_verified");
    }
  });
  return errors;
}

function validatePrefixed(
  mapping: PrefixedClaimOrExpression,
  path: string,
  requireOne: boolean,
  errors: FieldError[],
): CompiledClaimExpression | undefined {
  if (mapping.expression !== "" && mapping.claim !== "") {
    errors.push(invalid(path, "", "claim and expression can't both be set"));
  } else if (mapping.expression === "" && mapping.claim === "") {
    if (requireOne) errors.push(required(path, "claim or expression is required"));
  } else if (mapping.expression !== "") {
    const prefixed = mapping.prefix !== undefined;
    if (prefixed)
      errors.push(invalid(child(path, "prefix"), mapping.prefix, "may not be specified when expression is set"));
    const compiled = compile(errors, child(path, "expression"), mapping.expression, "claims", "any");
    // kube keeps the mapping only when the whole field is valid.
    return prefixed ? undefined : compiled;
  } else if (mapping.prefix === undefined) {
    const detail = "prefix is required when claim is set. It can be set to an empty string to disable prefixing";
    errors.push(required(child(path, "prefix"), detail));
  }
  return undefined;
}

/** apimachinery's IsDomainPrefixedPath. */
function domainPrefixedPathErrors(path: string, key: string): FieldError[] {
  if (key === "") return [required(path)];
  const slash = key.indexOf("/");
  const host = key.slice(0, Math.max(slash, 0));
  const rest = key.slice(slash + 1);
  if (slash <= 0 || rest === "") {
    return [invalid(path, key, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errors = dnsSubdomainErrors(host).map((e) => invalid(path, host, e));
  const httpPath = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
  if (!new RegExp(`^${httpPath}$`).test(rest)) {
    errors.push(invalid(path, rest, `Invalid path (regex used for validation is '${httpPath}')`));
  }
  return errors;
}

function isKubernetesDomain(key: string): boolean {
  const slash = key.indexOf("/");
  const domain = slash < 0 ? "" : key.slice(0, slash);
  return ["kubernetes.io", "k8s.io"].some((d) => domain === d || domain.endsWith(`.${d}`));
}

function validateClaimMappings(mappings: ClaimMappings, state: State, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const usernamePath = child(path, "username");
  const username = validatePrefixed(mappings.username, usernamePath, true, errors);
  if (username !== undefined) {
    state.usesEmail ||= selectsClaim(username.ast.expr, "email");
    state.usesEmailVerified ||= selectsClaim(username.ast.expr, "email_verified");
    state.rules.username = username;
  }
  const groups = validatePrefixed(mappings.groups, child(path, "groups"), false, errors);
  if (groups !== undefined) state.rules.groups = groups;

  const uidPath = child(path, "uid");
  if (mappings.uid.claim !== "" && mappings.uid.expression !== "") {
    errors.push(invalid(uidPath, "", "claim and expression can't both be set"));
  } else if (mappings.uid.expression !== "") {
    const uid = compile(errors, child(uidPath, "expression"), mappings.uid.expression, "claims", "any");
    if (uid !== undefined) state.rules.uid = uid;
  }

  const keys = new Set<string>();
  mappings.extra.forEach((mapping, i) => {
    const itemPath = index(child(path, "extra"), i);
    const keyPath = child(itemPath, "key");
    errors.push(...domainPrefixedPathErrors(keyPath, mapping.key));
    if (mapping.key !== mapping.key.toLowerCase()) errors.push(invalid(keyPath, mapping.key, "must be lowercase"));
    if (isKubernetesDomain(mapping.key)) {
      const detail = "k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use";
      errors.push(invalid(keyPath, mapping.key, detail));
    }
    if (keys.has(mapping.key)) {
      errors.push(duplicate(keyPath, mapping.key));
      return;
    }
    keys.add(mapping.key);
    const valuePath = child(itemPath, "valueExpression");
    if (mapping.valueExpression === "") {
      errors.push(required(valuePath));
      return;
    }
    const expression = compile(errors, valuePath, mapping.valueExpression, "claims", "any");
    if (expression === undefined) return;
    state.rules.extra.push({ key: mapping.key, expression });
    state.usesEmailVerified ||= selectsClaim(expression.ast.expr, "email_verified");
  });

  if (state.usesEmail && !state.usesEmailVerified) {
    errors.push(
      invalid(
        child(usernamePath, "expression"),
        mappings.username.expression,
        "claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression",
      ),
    );
  }
  return errors;
}

function validateUserValidationRules(rules: readonly UserValidationRule[], state: State, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const expressionPath = child(index(path, i), "expression");
    if (rule.expression === "") {
      errors.push(required(expressionPath));
      return;
    }
    if (seen.has(rule.expression)) {
      errors.push(duplicate(expressionPath, rule.expression));
      return;
    }
    seen.add(rule.expression);
    const expression = compile(errors, expressionPath, rule.expression, "user", "bool");
    if (expression !== undefined) state.rules.userValidationRules.push({ expression, message: rule.message });
  });
  return errors;
}

/**
 * Validates one JWT authenticator and compiles its expressions (kube's CompileAndValidateJWTAuthenticator);
 * `path` prefixes field paths (`jwt[0]`), empty for none.
 */
export function compileJwtAuthenticator(
  authenticator: JWTAuthenticator,
  disallowedIssuers: readonly string[],
  path = "",
): { rules: CompiledJwtRules; errors: FieldError[] } {
  const state: State = {
    rules: { extra: [], claimValidationRules: [], userValidationRules: [] },
    usesEmail: false,
    usesEmailVerified: false,
  };
  const errors = [
    ...validateIssuer(authenticator.issuer, disallowedIssuers, child(path, "issuer")),
    ...validateClaimValidationRules(authenticator.claimValidationRules, state, child(path, "claimValidationRules")),
    ...validateClaimMappings(authenticator.claimMappings, state, child(path, "claimMappings")),
    ...validateUserValidationRules(authenticator.userValidationRules, state, child(path, "userValidationRules")),
  ];
  return { rules: state.rules, errors };
}

/** Go's `%#v` of the conditions, which kube prints as the bad value. */
function conditionsValue(anonymous: AnonymousAuthConfig): string {
  const items = anonymous.conditions.map((c) => `apiserver.AnonymousAuthCondition{Path:${goQuote(c.path)}}`);
  return `[]apiserver.AnonymousAuthCondition{${items.join(", ")}}`;
}

/** kube's ValidateAuthenticationConfiguration. */
export function validateAuthenticationConfiguration(
  configuration: AuthenticationConfiguration,
  disallowedIssuers: readonly string[],
): FieldError[] {
  const errors: FieldError[] = [];
  if (configuration.jwt.length > maxAuthenticators) {
    return [tooMany("jwt", configuration.jwt.length, maxAuthenticators)];
  }
  const issuers = new Set<string>();
  const discoveryURLs = new Set<string>();
  configuration.jwt.forEach((authenticator, i) => {
    const path = index("jwt", i);
    errors.push(...compileJwtAuthenticator(authenticator, disallowedIssuers, path).errors);
    const { url, discoveryURL } = authenticator.issuer;
    if (issuers.has(url)) errors.push(duplicate(`${path}.issuer.url`, url));
    issuers.add(url);
    if (discoveryURL !== "") {
      if (discoveryURLs.has(discoveryURL)) errors.push(duplicate(`${path}.issuer.discoveryURL`, discoveryURL));
      discoveryURLs.add(discoveryURL);
    }
  });
  const anonymous = configuration.anonymous;
  if (anonymous !== undefined && !anonymous.enabled && anonymous.conditions.length > 0) {
    // The bad value is a Go struct slice, printed with %#v rather than quoted: it goes in the detail.
    errors.push({
      type: "FieldValueInvalid",
      field: "anonymous.conditions",
      detail: `${conditionsValue(anonymous)}: enabled should be set to true when conditions are defined`,
    });
  }
  return errors;
}
