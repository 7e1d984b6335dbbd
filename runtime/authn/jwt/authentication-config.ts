// The file `--authentication-config` names: an AuthenticationConfiguration (apiserver.config.k8s.io v1,
// v1beta1 or v1alpha1) in YAML or JSON with JWT authenticators and the structured anonymous settings.
// Reading follows kube-apiserver: strict decoding, then validation, failures worded as it words them
// (`failed to load authentication configuration from file "…": …`, `invalid authentication
// configuration: jwt[0].issuer.url: Invalid value: …`).
import { readFileSync } from "node:fs";
import { apiserverConfigurationKinds } from "../../config/apiserver-kinds.js";
import { ConfigError, type ConfigScheme, decodeConfig } from "../../config/config-document.js";
import { formatFieldErrors } from "../../errors/format-field-error.js";
import { authenticationConfigurationShape } from "./authentication-config-shape.js";
import type { AuthenticationConfiguration } from "./authentication-configuration.js";
import { ConfigDecodeError, decodeStrict } from "./config-decoder.js";
import { validateAuthenticationConfiguration } from "./validate-authentication-config.js";

/** The scheme kube-apiserver decodes the file with; other kinds of it decode but are refused after. */
const authenticationScheme: ConfigScheme = {
  name: "pkg/kubeapiserver/options/authentication.go:879",
  kinds: apiserverConfigurationKinds,
};

/** A configuration file kube-apiserver would refuse; the message is kube's. */
export class AuthenticationConfigError extends Error {
  override name = "AuthenticationConfigError";
}

/** Decodes the file's text (kube's loadAuthenticationConfigFromData); throws ConfigDecodeError. */
export function parseAuthenticationConfig(data: string): AuthenticationConfiguration {
  if (data.length === 0) throw new ConfigDecodeError("empty config data");
  let decoded: ReturnType<typeof decodeConfig>;
  try {
    decoded = decodeConfig(data, { scheme: authenticationScheme });
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigDecodeError(error.message);
    throw error;
  }
  const { object, gvk } = decoded;
  if (gvk.kind !== "AuthenticationConfiguration") {
    throw new ConfigDecodeError(`expected AuthenticationConfiguration, got *apiserver.${gvk.kind}`);
  }
  return decodeStrict(object, authenticationConfigurationShape, gvk.version) as unknown as AuthenticationConfiguration;
}

export interface AuthenticationConfigOptions {
  /** Issuers JWT authenticators may not use: kube passes `--service-account-issuer`'s values. */
  disallowedIssuers?: readonly string[];
}

/** A decoded, valid configuration; throws AuthenticationConfigError with kube's `invalid authentication configuration: …`. */
export function checkAuthenticationConfig(
  configuration: AuthenticationConfiguration,
  options: AuthenticationConfigOptions = {},
): AuthenticationConfiguration {
  const errors = validateAuthenticationConfiguration(configuration, options.disallowedIssuers ?? []);
  if (errors.length > 0) {
    throw new AuthenticationConfigError(`invalid authentication configuration: ${formatFieldErrors(errors)}`);
  }
  return configuration;
}

export interface AuthenticationConfigFile {
  configuration: AuthenticationConfiguration;
  /** The file's text as read: a reload compares against it. */
  data: string;
}

/** Go's os.ReadFile error text for the usual failures. */
function readError(path: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ENOENT":
      return `open ${path}: no such file or directory`;
    case "EACCES":
      return `open ${path}: permission denied`;
    case "EISDIR":
      return `read ${path}: is a directory`;
    default:
      return `open ${path}: ${error.message}`;
  }
}

/** Reads and decodes the file without validating it (reloads validate on their own). */
export function readAuthenticationConfig(path: string): AuthenticationConfigFile {
  const failed = (why: string) =>
    new AuthenticationConfigError(`failed to load authentication configuration from file "${path}": ${why}`);
  let data: string;
  try {
    data = readFileSync(path, "utf8");
  } catch (error) {
    throw failed(readError(path, error as NodeJS.ErrnoException));
  }
  try {
    return { configuration: parseAuthenticationConfig(data), data };
  } catch (error) {
    if (error instanceof ConfigDecodeError) throw failed(error.message);
    throw error;
  }
}

/** `--authentication-config`: read, decode and validate the file, as kube-apiserver does at start. */
export function loadAuthenticationConfig(
  path: string,
  options: AuthenticationConfigOptions = {},
): AuthenticationConfigFile {
  const file = readAuthenticationConfig(path);
  checkAuthenticationConfig(file.configuration, options);
  return file;
}
