// The AuthenticationConfiguration type (apiserver.config.k8s.io) as decoded from its file; authentication-config.ts
// reads it and validate-authentication-config.ts checks it.
export interface AuthenticationConfiguration {
  jwt: JWTAuthenticator[];
  /** Set when the file has an `anonymous` section (which then replaces `--anonymous-auth`). */
  anonymous?: AnonymousAuthConfig;
}

export interface JWTAuthenticator {
  issuer: Issuer;
  claimValidationRules: ClaimValidationRule[];
  claimMappings: ClaimMappings;
  userValidationRules: UserValidationRule[];
}

export interface Issuer {
  url: string;
  discoveryURL: string;
  /** PEM certificates trusted for the issuer's TLS; empty means the host's roots. */
  certificateAuthority: string;
  audiences: string[];
  /** Empty or `MatchAny`. */
  audienceMatchPolicy: string;
  /** Accepted and checked as kube checks it; kapi has no egress selector, so it changes nothing. */
  egressSelectorType: string;
}

export interface ClaimValidationRule {
  claim: string;
  requiredValue: string;
  expression: string;
  message: string;
}

export interface PrefixedClaimOrExpression {
  claim: string;
  /** Unset differs from "": a claim needs a prefix, which may be empty. */
  prefix?: string;
  expression: string;
}

export interface ClaimOrExpression {
  claim: string;
  expression: string;
}

export interface ClaimMappings {
  username: PrefixedClaimOrExpression;
  groups: PrefixedClaimOrExpression;
  uid: ClaimOrExpression;
  extra: ExtraMapping[];
}

export interface ExtraMapping {
  key: string;
  valueExpression: string;
}

export interface UserValidationRule {
  expression: string;
  message: string;
}

/** kube's structured anonymous authentication: when enabled, only requests to `conditions`' paths (all when none). */
export interface AnonymousAuthConfig {
  enabled: boolean;
  conditions: AnonymousAuthCondition[];
}

export interface AnonymousAuthCondition {
  path: string;
}
