// AuthenticationConfiguration (apiserver.config.k8s.io): kube's ValidateAuthenticationConfiguration, the
// same validation the `--authentication-config` reader applies (runtime/authn/jwt/), so `kapi config
// validate` says what kube-apiserver would say at start. No issuer is disallowed here: that list comes from
// kube-apiserver's `--service-account-issuer` flags, which a file alone does not carry.
import { authenticationConfigurationShape } from "../authn/jwt/authentication-config-shape.js";
import type { AuthenticationConfiguration } from "../authn/jwt/authentication-configuration.js";
import { decodeStrict } from "../authn/jwt/config-decoder.js";
import { validateAuthenticationConfiguration } from "../authn/jwt/validate-authentication-config.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";

function versionOf(obj: KubeObject): string {
  const apiVersion = String(obj.apiVersion);
  return apiVersion.slice(apiVersion.indexOf("/") + 1);
}

function validate(obj: KubeObject): FieldError[] {
  // The object was decoded strictly already; this only gives absent fields Go's zero values.
  const configuration = decodeStrict(obj, authenticationConfigurationShape, versionOf(obj));
  return validateAuthenticationConfiguration(configuration as unknown as AuthenticationConfiguration, []);
}

export const strategy: Strategy = { validate };
