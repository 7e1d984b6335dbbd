// AuthorizationConfiguration (apiserver.config.k8s.io): kube's ValidateAuthorizationConfiguration, the same
// validation the `--authorization-config` reader applies (runtime/authz/), so `kapi config validate` says what
// kube-apiserver would say. kube-apiserver's own checks after it (authorizers named after their type) belong
// to the server, not to the file's type, and stay in the reader.
import {
  authorizationConfigurationFrom,
  validateAuthorizationConfiguration,
} from "../authz/authorization-configuration.js";
import type { FieldError } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";

function validate(obj: KubeObject): FieldError[] {
  return validateAuthorizationConfiguration(authorizationConfigurationFrom(obj));
}

export const strategy: Strategy = { validate };
