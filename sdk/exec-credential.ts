// Exec credential plugins, as client-go's plugin/pkg/client/auth/exec runs them: the kubeconfig names a
// command that prints an ExecCredential (client.authentication.k8s.io v1 or v1beta1) with a bearer token
// or a client certificate and key. The input ExecCredential goes in `KUBERNETES_EXEC_INFO` (with the
// cluster when provideClusterInfo is set); stdin is passed only in interactive mode. Credentials are kept
// until their expirationTimestamp, until the server answers 401 to them, or until the process exits; one
// plugin run at a time, shared by every client of the same exec configuration and cluster.
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { createSecureContext } from "node:tls";
import { parse } from "yaml";
import { isDateTime } from "./date-time.js";
import type { ClusterConfig, ExecConfig } from "./kubeconfig.js";

export const execInfoEnv = "KUBERNETES_EXEC_INFO";
const execApiVersions: readonly string[] = ["client.authentication.k8s.io/v1beta1", "client.authentication.k8s.io/v1"];

const installHintVerboseHelp = `

It looks like you are trying to use a client-go credential plugin that is not installed.

To learn more about this feature, consult the documentation available at:
      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins`;

/** What a plugin run gave; compared by identity to tell whether a 401 was for the credentials still cached. */
export interface ExecCredentials {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
}

/** ExecCredential's spec.cluster (client.authentication.k8s.io Cluster), in its JSON form. */
export interface ExecCluster {
  server: string;
  "tls-server-name"?: string;
  "insecure-skip-tls-verify"?: boolean;
  /** base64 of the PEM, as Go encodes []byte. */
  "certificate-authority-data"?: string;
  "disable-compression"?: boolean;
  config?: unknown;
}

export class ExecPluginError extends Error {
  override name = "ExecPluginError";
}

export interface ExecPluginOptions {
  /** Whether stdin is a terminal (interactive modes); default: process.stdin.isTTY. */
  stdinIsTerminal?: boolean;
  /** What an interactive plugin reads; default process.stdin. */
  stdin?: Readable;
  now?: () => Date;
}

/** client-go's ConfigToExecCluster: the cluster as the plugin sees it, with the per-cluster exec extension. */
export function execClusterOf(cluster: ClusterConfig): ExecCluster {
  return {
    server: cluster.server,
    ...(cluster.tlsServerName === undefined ? {} : { "tls-server-name": cluster.tlsServerName }),
    ...(cluster.insecureSkipTlsVerify ? { "insecure-skip-tls-verify": true } : {}),
    ...(cluster.certificateAuthorityData === undefined
      ? {}
      : { "certificate-authority-data": Buffer.from(cluster.certificateAuthorityData).toString("base64") }),
    ...(cluster.disableCompression ? { "disable-compression": true } : {}),
    ...(cluster.execExtension === undefined ? {} : { config: cluster.execExtension }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface Decoded {
  credentials: ExecCredentials;
  expiresAt?: number;
}

/** The plugin's ExecCredential, checked with client-go's errors. */
function decode(stdout: string, apiVersion: string): Decoded {
  let output: unknown;
  try {
    output = parse(stdout);
  } catch (error) {
    throw new ExecPluginError(`decoding stdout: ${(error as Error).message}`);
  }
  if (!isObject(output) || typeof output.kind !== "string" || output.kind === "") {
    throw new ExecPluginError("decoding stdout: Object 'Kind' is missing");
  }
  const version = typeof output.apiVersion === "string" ? output.apiVersion : "";
  if (!execApiVersions.includes(version) || output.kind !== "ExecCredential") {
    throw new ExecPluginError(`decoding stdout: no kind "${output.kind}" is registered for version "${version}"`);
  }
  if (version !== apiVersion) {
    throw new ExecPluginError(
      `exec plugin is configured to use API version ${apiVersion}, plugin returned version ${version}`,
    );
  }
  const status = output.status;
  if (status === undefined || status === null) throw new ExecPluginError("exec plugin didn't return a status field");
  if (!isObject(status)) throw new ExecPluginError("decoding stdout: status must be an object");
  const field = (key: string): string => {
    const value = status[key];
    if (value === undefined || value === null) return "";
    if (typeof value !== "string") throw new ExecPluginError(`decoding stdout: status.${key} must be a string`);
    return value;
  };
  const token = field("token");
  const clientCertificateData = field("clientCertificateData");
  const clientKeyData = field("clientKeyData");
  const expiration = field("expirationTimestamp");
  if (token === "" && clientCertificateData === "" && clientKeyData === "") {
    throw new ExecPluginError("exec plugin didn't return a token or cert/key pair");
  }
  if ((clientCertificateData === "") !== (clientKeyData === "")) {
    throw new ExecPluginError("exec plugin returned only certificate or key, not both");
  }
  const expiresAt = expiration === "" ? undefined : isDateTime(expiration) ? Date.parse(expiration) : Number.NaN;
  if (expiresAt !== undefined && Number.isNaN(expiresAt)) {
    throw new ExecPluginError(
      `decoding stdout: status.expirationTimestamp ${JSON.stringify(expiration)} is not RFC 3339`,
    );
  }
  if (clientCertificateData !== "") {
    try {
      createSecureContext({ cert: clientCertificateData, key: clientKeyData });
    } catch (error) {
      throw new ExecPluginError(`failed parsing client key/certificate: ${(error as Error).message}`);
    }
  }
  return {
    credentials: {
      ...(token === "" ? {} : { token }),
      ...(clientCertificateData === "" ? {} : { clientCertificateData, clientKeyData }),
    },
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
}

export class ExecCredentialPlugin {
  private cached: Decoded | undefined;
  private running: Promise<ExecCredentials> | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly config: ExecConfig,
    private readonly cluster: ExecCluster,
    private readonly options: ExecPluginOptions = {},
  ) {
    if (!execApiVersions.includes(config.apiVersion)) {
      throw new ExecPluginError(`exec plugin: invalid apiVersion "${config.apiVersion}"`);
    }
    this.now = options.now ?? (() => new Date());
  }

  /** The cached credentials while they last; otherwise the plugin's fresh ones. */
  credentials(): Promise<ExecCredentials> {
    const cached = this.cached;
    if (cached !== undefined && (cached.expiresAt === undefined || this.now().getTime() <= cached.expiresAt)) {
      return Promise.resolve(cached.credentials);
    }
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** The server refused `used` (401): they are dropped unless another run has replaced them already. */
  unauthorized(used: ExecCredentials): void {
    if (this.cached?.credentials === used) this.cached = undefined;
  }

  private interactive(): boolean {
    const terminal = () => this.options.stdinIsTerminal ?? process.stdin.isTTY === true;
    switch (this.config.interactiveMode) {
      case "Never":
        return false;
      case "IfAvailable":
        return terminal();
      case "Always":
        if (!terminal()) {
          throw new ExecPluginError("exec plugin cannot support interactive mode: standard input is not a terminal");
        }
        return true;
    }
  }

  private async run(): Promise<ExecCredentials> {
    const interactive = this.interactive();
    const input = {
      kind: "ExecCredential",
      apiVersion: this.config.apiVersion,
      spec: { ...(this.config.provideClusterInfo ? { cluster: this.cluster } : {}), interactive },
    };
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const variable of this.config.env) env[variable.name] = variable.value;
    env[execInfoEnv] = JSON.stringify(input);
    const stdout = await this.spawn(env, interactive);
    const decoded = decode(stdout, this.config.apiVersion);
    this.cached = decoded;
    return decoded.credentials;
  }

  private spawn(env: NodeJS.ProcessEnv, interactive: boolean): Promise<string> {
    const { command } = this.config;
    const stdin = this.options.stdin;
    const stdinMode = !interactive ? "ignore" : stdin === undefined ? "inherit" : "pipe";
    return new Promise((resolve, reject) => {
      const child = spawn(command, this.config.args, { env, stdio: [stdinMode, "pipe", "inherit"] });
      const chunks: Buffer[] = [];
      child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
      if (stdinMode === "pipe" && stdin !== undefined && child.stdin !== null) {
        // A plugin may exit without reading all of it.
        child.stdin.on("error", () => {});
        stdin.pipe(child.stdin);
      }
      child.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" || error.code === "EACCES") {
          const hint = this.config.installHint === undefined ? "" : `\n\n${this.config.installHint}`;
          reject(new ExecPluginError(`exec: executable ${command} not found${installHintVerboseHelp}${hint}`));
        } else {
          reject(new ExecPluginError(`exec: ${error.message}`));
        }
      });
      child.on("close", (code) => {
        if (code === 0) resolve(Buffer.concat(chunks).toString("utf8"));
        else reject(new ExecPluginError(`exec: executable ${command} failed with exit code ${code ?? -1}`));
      });
    });
  }
}

const plugins = new Map<string, ExecCredentialPlugin>();

/**
 * The plugin shared by every client of this exec configuration and cluster in the process, as client-go's
 * cache of authenticators: it runs once for all of them. `options` count only for the first.
 */
export function sharedExecPlugin(
  config: ExecConfig,
  cluster: ExecCluster,
  options?: ExecPluginOptions,
): ExecCredentialPlugin {
  const key = JSON.stringify({ config, cluster });
  let plugin = plugins.get(key);
  if (plugin === undefined) {
    plugin = new ExecCredentialPlugin(config, cluster, options);
    plugins.set(key, plugin);
  }
  return plugin;
}
