// The Go types an AuthenticationConfiguration decodes into: what decodeStrict needs to hand validation an
// object with Go's zero values where fields are absent. Shared by the `--authentication-config` reader and
// the kind's strategy (`kapi config validate`).
import type { GoShape } from "./config-decoder.js";

const string: GoShape = { kind: "string" };
const strings: GoShape = { kind: "list", item: string };
const struct = (name: string, fields: Record<string, GoShape>) => ({ kind: "struct", name, fields }) as const;
const prefixed = struct("PrefixedClaimOrExpression", {
  claim: string,
  prefix: { kind: "optionalString" },
  expression: string,
});

/** AuthenticationConfiguration as kube's Go types hold it (the same in v1, v1beta1 and v1alpha1). */
export const authenticationConfigurationShape = struct("AuthenticationConfiguration", {
  jwt: {
    kind: "list",
    item: struct("JWTAuthenticator", {
      issuer: struct("Issuer", {
        url: string,
        discoveryURL: string,
        certificateAuthority: string,
        audiences: strings,
        audienceMatchPolicy: { kind: "string", goType: "AudienceMatchPolicyType" },
        egressSelectorType: { kind: "string", goType: "EgressSelectorType" },
      }),
      claimValidationRules: {
        kind: "list",
        item: struct("ClaimValidationRule", {
          claim: string,
          requiredValue: string,
          expression: string,
          message: string,
        }),
      },
      claimMappings: struct("ClaimMappings", {
        username: prefixed,
        groups: prefixed,
        uid: struct("ClaimOrExpression", { claim: string, expression: string }),
        extra: { kind: "list", item: struct("ExtraMapping", { key: string, valueExpression: string }) },
      }),
      userValidationRules: {
        kind: "list",
        item: struct("UserValidationRule", { expression: string, message: string }),
      },
    }),
  },
  anonymous: {
    kind: "optionalStruct",
    struct: struct("AnonymousAuthConfig", {
      enabled: { kind: "bool" },
      conditions: { kind: "list", item: struct("AnonymousAuthCondition", { path: string }) },
    }),
  },
});
