// A kubeconfig read as client-go's clientcmd reads it for one context (the current one, or `--context`):
// the cluster (server, CA, TLS options), the user (client certificate, token, token file, exec plugin) and
// the namespace. Paths are relative to the kubeconfig's directory. Configuration errors read as
// clientcmd's ("invalid configuration: ..."). Proxies are not supported: a cluster with `proxy-url` is
// refused rather than connected to directly.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve, sep } from "node:path";
import { parse } from "yaml";

export type InteractiveMode = "Never" | "IfAvailable" | "Always";

export interface ExecEnvVar {
  name: string;
  value: string;
}

/** A user's `exec` stanza (client-go's ExecConfig). */
export interface ExecConfig {
  command: string;
  args: string[];
  env: ExecEnvVar[];
  apiVersion: string;
  installHint?: string;
  provideClusterInfo: boolean;
  interactiveMode: InteractiveMode;
}

export interface ClusterConfig {
  name: string;
  server: string;
  /** PEM of the CAs to trust, from certificate-authority-data or the certificate-authority file. */
  certificateAuthorityData?: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  disableCompression: boolean;
  /** The cluster's extension `client.authentication.k8s.io/exec`, handed to exec plugins. */
  execExtension?: unknown;
}

export interface UserConfig {
  name: string;
  token?: string;
  /** Absolute path; read again at each use, and preferred to `token` while it can be read. */
  tokenFile?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  /** Basic authentication. */
  username?: string;
  password?: string;
  exec?: ExecConfig;
}

export interface ClientConfig {
  context: string;
  namespace: string;
  cluster: ClusterConfig;
  user: UserConfig;
}

export type KubeconfigSource = { path: string } | { text: string; baseDir?: string };

export class KubeconfigError extends Error {
  override name = "KubeconfigError";
}

export const execClusterExtension = "client.authentication.k8s.io/exec";
const execApiVersionsDefaultingToIfAvailable = [
  "client.authentication.k8s.io/v1beta1",
  "client.authentication.k8s.io/v1alpha1",
];
const interactiveModes: readonly string[] = ["Never", "IfAvailable", "Always"];

type Entry = Record<string, unknown>;

function entries(value: unknown, field: string): Map<string, Entry> {
  const named = new Map<string, Entry>();
  if (!Array.isArray(value)) return named;
  for (const item of value as Entry[]) {
    const inner = item?.[field];
    if (typeof item?.name === "string") named.set(item.name, (inner ?? {}) as Entry);
  }
  return named;
}

function text(entry: Entry, key: string): string {
  const value = entry[key];
  return typeof value === "string" ? value : "";
}

/** What Go's os.Open says about a file it cannot read. */
function openError(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === "ENOENT"
      ? "no such file or directory"
      : code === "EACCES"
        ? "permission denied"
        : code === "EISDIR"
          ? "is a directory"
          : (error as Error).message;
  return `open ${path}: ${reason}`;
}

/** Inline base64 `<key>-data`, preferred, or the file `<key>` relative to the kubeconfig. */
function material(
  entry: Entry,
  key: string,
  base: string,
  errors: string[],
  describe: (path: string, error: unknown) => string,
): string | undefined {
  const data = text(entry, `${key}-data`);
  if (data !== "") return Buffer.from(data, "base64").toString("utf8");
  const file = text(entry, key);
  if (file === "") return undefined;
  const path = resolve(base, file);
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    errors.push(describe(path, error));
    return undefined;
  }
}

function readCluster(name: string, entry: Entry, base: string, errors: string[]): ClusterConfig {
  if (Object.keys(entry).length === 0) {
    errors.push("cluster has no server defined");
  } else if (text(entry, "server") === "") {
    errors.push(name === "" ? "default cluster has no server defined" : `no server found for cluster "${name}"`);
  }
  if (text(entry, "certificate-authority") !== "" && text(entry, "certificate-authority-data") !== "") {
    errors.push(
      `certificate-authority-data and certificate-authority are both specified for ${name}. certificate-authority-data will override.`,
    );
  }
  const ca = material(
    entry,
    "certificate-authority",
    base,
    errors,
    (path, error) => `unable to read certificate-authority ${path} for ${name} due to ${openError(path, error)}`,
  );
  const tlsServerName = text(entry, "tls-server-name");
  const extensions = entries(entry.extensions, "extension");
  return {
    name,
    server: text(entry, "server"),
    insecureSkipTlsVerify: entry["insecure-skip-tls-verify"] === true,
    disableCompression: entry["disable-compression"] === true,
    ...(ca === undefined ? {} : { certificateAuthorityData: ca }),
    ...(tlsServerName === "" ? {} : { tlsServerName }),
    ...(extensions.has(execClusterExtension) ? { execExtension: extensions.get(execClusterExtension) } : {}),
  };
}

function readExec(name: string, entry: Entry, base: string, errors: string[]): ExecConfig {
  const apiVersion = text(entry, "apiVersion");
  let interactiveMode = text(entry, "interactiveMode");
  // clientcmd's defaulting: only the older versions may leave the mode out.
  if (interactiveMode === "" && execApiVersionsDefaultingToIfAvailable.includes(apiVersion)) {
    interactiveMode = "IfAvailable";
  }
  let command = text(entry, "command");
  // A command with a path separator is a path, relative to the kubeconfig; a bare name is looked up in PATH.
  if (command.includes(sep) && !isAbsolute(command)) command = resolve(base, command);
  if (command === "") errors.push(`command must be specified for ${name} to use exec authentication plugin`);
  if (apiVersion === "") errors.push(`apiVersion must be specified for ${name} to use exec authentication plugin`);
  const env = (Array.isArray(entry.env) ? (entry.env as Entry[]) : []).map((v) => ({
    name: text(v ?? {}, "name"),
    value: text(v ?? {}, "value"),
  }));
  for (const variable of env) {
    if (variable.name === "") {
      errors.push(`env variable name must be specified for ${name} to use exec authentication plugin`);
    }
  }
  if (interactiveMode === "") {
    errors.push(`interactiveMode must be specified for ${name} to use exec authentication plugin`);
  } else if (!interactiveModes.includes(interactiveMode)) {
    errors.push(`invalid interactiveMode for ${name}: "${interactiveMode}"`);
  }
  const installHint = text(entry, "installHint");
  return {
    command,
    args: Array.isArray(entry.args) ? (entry.args as unknown[]).map(String) : [],
    env,
    apiVersion,
    provideClusterInfo: entry.provideClusterInfo === true,
    interactiveMode: interactiveMode as InteractiveMode,
    ...(installHint === "" ? {} : { installHint }),
  };
}

function readUser(name: string, entry: Entry, base: string, errors: string[]): UserConfig {
  const hasCert = text(entry, "client-certificate") !== "" || text(entry, "client-certificate-data") !== "";
  const hasKeyFile = text(entry, "client-key") !== "";
  const hasKeyData = text(entry, "client-key-data") !== "";
  let clientCertificateData: string | undefined;
  let clientKeyData: string | undefined;
  if (hasCert) {
    if (text(entry, "client-certificate") !== "" && text(entry, "client-certificate-data") !== "") {
      errors.push(`client-cert-data and client-cert are both specified for ${name}. client-cert-data will override.`);
    }
    if (hasKeyFile && hasKeyData) {
      errors.push(`client-key-data and client-key are both specified for ${name}; client-key-data will override`);
    }
    if (!hasKeyFile && !hasKeyData) {
      errors.push(
        `client-key-data or client-key must be specified for ${name} to use the clientCert authentication method.`,
      );
    }
    const unreadable = (what: string) => (path: string, error: unknown) =>
      `unable to read ${what} ${path} for ${name} due to ${openError(path, error)}`;
    clientCertificateData = material(entry, "client-certificate", base, errors, unreadable("client-cert"));
    clientKeyData = material(entry, "client-key", base, errors, unreadable("client-key"));
  }
  const token = text(entry, "token");
  const tokenFileName = text(entry, "tokenFile");
  const tokenFile = tokenFileName === "" ? undefined : resolve(base, tokenFileName);
  // Without an inline token the file must be readable now, as clientcmd reads it when building the client.
  if (token === "" && tokenFile !== undefined) {
    try {
      readFileSync(tokenFile);
    } catch (error) {
      errors.push(openError(tokenFile, error));
    }
  }
  const exec =
    entry.exec === undefined || entry.exec === null ? undefined : readExec(name, entry.exec as Entry, base, errors);
  const username = text(entry, "username");
  const password = text(entry, "password");
  if (token !== "" && (username !== "" || password !== "")) {
    errors.push(`more than one authentication method found for ${name}; found [token basicAuth], only one is allowed`);
  }
  return {
    name,
    ...(username === "" && password === "" ? {} : { username, password }),
    ...(token === "" ? {} : { token }),
    ...(tokenFile === undefined ? {} : { tokenFile }),
    ...(clientCertificateData === undefined ? {} : { clientCertificateData }),
    ...(clientKeyData === undefined ? {} : { clientKeyData }),
    ...(exec === undefined ? {} : { exec }),
  };
}

function invalidConfiguration(errors: readonly string[]): KubeconfigError {
  return new KubeconfigError(`invalid configuration: ${errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`}`);
}

/**
 * Reads a kubeconfig for one context, checked as client-go's DirectClientConfig.ConfirmUsable checks it.
 * `context` overrides `current-context`, as kubectl's `--context`.
 */
export function loadKubeconfig(source: KubeconfigSource, options: { context?: string } = {}): ClientConfig {
  let content: string;
  let base: string;
  if ("path" in source) {
    const path = resolve(source.path);
    base = dirname(path);
    try {
      content = readFileSync(path, "utf8");
    } catch (error) {
      throw new KubeconfigError(openError(path, error));
    }
  } else {
    content = source.text;
    base = resolve(source.baseDir ?? ".");
  }
  let config: Entry;
  try {
    config = (parse(content) ?? {}) as Entry;
  } catch (error) {
    const where = "path" in source ? ` "${source.path}"` : "";
    throw new KubeconfigError(`error loading config file${where}: ${(error as Error).message}`);
  }
  const contexts = entries(config.contexts, "context");
  const clusters = entries(config.clusters, "cluster");
  const users = entries(config.users, "user");
  const contextName = options.context ?? text(config, "current-context");

  const context = contexts.get(contextName);
  if (contextName !== "" && context === undefined) {
    throw new KubeconfigError(`context was not found for specified context: ${contextName}`);
  }
  const errors: string[] = [];
  const userName = text(context ?? {}, "user");
  const clusterName = text(context ?? {}, "cluster");
  const user = readUser(userName, users.get(userName) ?? {}, base, errors);
  const cluster = readCluster(clusterName, clusters.get(clusterName) ?? {}, base, errors);
  if (errors.length === 1 && errors[0] === "cluster has no server defined") {
    throw invalidConfiguration([
      "no configuration has been provided, try setting KUBERNETES_MASTER environment variable",
    ]);
  }
  if (errors.length > 0) throw invalidConfiguration(errors);
  if (text(clusters.get(clusterName) ?? {}, "proxy-url") !== "") {
    throw new KubeconfigError(`cluster "${clusterName}": proxy-url is not supported by this client`);
  }
  return { context: contextName, namespace: text(context ?? {}, "namespace") || "default", cluster, user };
}
