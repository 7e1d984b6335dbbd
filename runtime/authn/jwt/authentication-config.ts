// The file `--authentication-config` names: an AuthenticationConfiguration (apiserver.config.k8s.io v1,
// v1beta1 or v1alpha1) in YAML or JSON with JWT authenticators and the structured anonymous settings.
// Reading follows kube-apiserver: strict decoding, then validation, failures worded as it words them
// (`failed to load authentication configuration from file "…": …`, `invalid authentication
// configuration: jwt[0].issuer.url: Invalid value: …`).
import { readFileSync } from "node:fs";
import { formatFieldErrors } from "../../errors/format-field-error.js";
import type { AuthenticationConfiguration } from "./authentication-configuration.js";
import { ConfigDecodeError, decodeStrict, type GoShape, yamlToJson } from "./config-decoder.js";
import { validateAuthenticationConfiguration } from "./validate-authentication-config.js";

const group = "apiserver.config.k8s.io";
const versions = new Set(["v1", "v1beta1", "v1alpha1"]);
/** Other kinds the same scheme knows, which decode but are not an AuthenticationConfiguration. */
const otherKinds = new Set([
  "AuthorizationConfiguration",
  "AdmissionConfiguration",
  "EgressSelectorConfiguration",
  "TracingConfiguration",
]);

const string: GoShape = { kind: "string" };
const strings: GoShape = { kind: "list", item: string };
const struct = (name: string, fields: Record<string, GoShape>) => ({ kind: "struct", name, fields }) as const;
const prefixed = struct("PrefixedClaimOrExpression", {
  claim: string,
  prefix: { kind: "optionalString" },
  expression: string,
});

const configurationShape = struct("AuthenticationConfiguration", {
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

/** A configuration file kube-apiserver would refuse; the message is kube's. */
export class AuthenticationConfigError extends Error {
  override name = "AuthenticationConfigError";
}

/** Decodes the file's text (kube's loadAuthenticationConfigFromData); throws ConfigDecodeError. */
export function parseAuthenticationConfig(data: string): AuthenticationConfiguration {
  if (data.length === 0) throw new ConfigDecodeError("empty config data");
  const json = yamlToJson(data);
  if (json !== null && (typeof json !== "object" || Array.isArray(json))) {
    throw new ConfigDecodeError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(json) ? "array" : typeof json} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const object = (json ?? {}) as Record<string, unknown>;
  const kind = typeof object.kind === "string" ? object.kind : "";
  const apiVersion = typeof object.apiVersion === "string" ? object.apiVersion : "";
  if (kind === "") throw new ConfigDecodeError(`Object 'Kind' is missing in '${data}'`);
  if (apiVersion === "") throw new ConfigDecodeError(`Object 'apiVersion' is missing in '${data}'`);
  const slash = apiVersion.indexOf("/");
  const version = apiVersion.slice(slash + 1);
  const known = slash > 0 && apiVersion.slice(0, slash) === group && versions.has(version);
  if (known && otherKinds.has(kind)) {
    throw new ConfigDecodeError(`expected AuthenticationConfiguration, got *apiserver.${kind}`);
  }
  if (!known || kind !== "AuthenticationConfiguration") {
    throw new ConfigDecodeError(
      `no kind "${kind}" is registered for version "${apiVersion}" in scheme "k8s.io/kubernetes/pkg/kubeapiserver/options/authentication.go"`,
    );
  }
  return decodeStrict(object, configurationShape, version) as unknown as AuthenticationConfiguration;
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
