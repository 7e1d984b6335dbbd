// What each request to a kubeconfig's cluster carries: TLS options (the CA to trust, the server name to
// check, a client certificate) and an Authorization header (a bearer token, else basic authentication). As
// client-go, a user's own token, token file, username or client certificate is used as is and an exec plugin
// only when the user has none of them; the plugin's credentials are asked for at every request (it keeps them
// cached) and dropped after a 401.
import { readFile } from "node:fs/promises";
import {
  type ExecCredentialPlugin,
  type ExecCredentials,
  type ExecPluginOptions,
  execClusterOf,
  sharedExecPlugin,
} from "./exec-credential.js";
import type { ClientConfig } from "./kubeconfig.js";

export interface TlsOptions {
  ca?: string;
  cert?: string;
  key?: string;
  rejectUnauthorized: boolean;
  servername?: string;
}

export interface RequestCredentials {
  headers: Record<string, string>;
  tls: TlsOptions;
  /** The exec plugin's credentials these came from. */
  exec?: ExecCredentials;
}

export class ClientCredentials {
  readonly server: URL;
  private readonly plugin: ExecCredentialPlugin | undefined;
  private readonly tls: TlsOptions;

  constructor(
    readonly config: ClientConfig,
    options: { exec?: ExecPluginOptions } = {},
  ) {
    const { cluster, user } = config;
    this.server = new URL(cluster.server);
    if (cluster.insecureSkipTlsVerify && cluster.certificateAuthorityData !== undefined) {
      throw new Error("specifying a root certificates file with the insecure flag is not allowed");
    }
    this.tls = {
      rejectUnauthorized: !cluster.insecureSkipTlsVerify,
      ...(cluster.certificateAuthorityData === undefined ? {} : { ca: cluster.certificateAuthorityData }),
      ...(cluster.tlsServerName === undefined ? {} : { servername: cluster.tlsServerName }),
      ...(user.clientCertificateData === undefined ? {} : { cert: user.clientCertificateData }),
      ...(user.clientKeyData === undefined ? {} : { key: user.clientKeyData }),
    };
    const ownCredentials =
      user.token !== undefined ||
      user.tokenFile !== undefined ||
      user.username !== undefined ||
      user.clientCertificateData !== undefined;
    this.plugin =
      user.exec === undefined || ownCredentials
        ? undefined
        : sharedExecPlugin(user.exec, execClusterOf(cluster), options.exec);
  }

  /** The credentials for the next request; a failing exec plugin rejects with "getting credentials: ...". */
  async current(): Promise<RequestCredentials> {
    if (this.plugin === undefined) {
      const token = await this.bearerToken();
      if (token !== undefined) return { headers: { authorization: `Bearer ${token}` }, tls: this.tls };
      const { username, password } = this.config.user;
      if (username === undefined) return { headers: {}, tls: this.tls };
      const basic = Buffer.from(`${username}:${password ?? ""}`).toString("base64");
      return { headers: { authorization: `Basic ${basic}` }, tls: this.tls };
    }
    let exec: ExecCredentials;
    try {
      exec = await this.plugin.credentials();
    } catch (error) {
      throw new Error(`getting credentials: ${(error as Error).message}`, { cause: error });
    }
    return {
      headers: exec.token === undefined ? {} : { authorization: `Bearer ${exec.token}` },
      tls: {
        ...this.tls,
        ...(exec.clientCertificateData === undefined ? {} : { cert: exec.clientCertificateData }),
        ...(exec.clientKeyData === undefined ? {} : { key: exec.clientKeyData }),
      },
      exec,
    };
  }

  /** The server answered 401 to `used`; true when fresh credentials may be asked for (an exec plugin's). */
  unauthorized(used: RequestCredentials): boolean {
    if (this.plugin === undefined || used.exec === undefined) return false;
    this.plugin.unauthorized(used.exec);
    return true;
  }

  /** client-go's token file source: the file's trimmed content while it can be read, else the inline token. */
  private async bearerToken(): Promise<string | undefined> {
    const { token, tokenFile } = this.config.user;
    if (tokenFile === undefined) return token;
    let fromFile: string;
    try {
      fromFile = (await readFile(tokenFile, "utf8")).trim();
    } catch (error) {
      if (token === undefined) throw error;
      return token;
    }
    if (fromFile !== "") return fromFile;
    if (token === undefined) throw new Error(`read empty token from file "${tokenFile}"`);
    return token;
  }
}
