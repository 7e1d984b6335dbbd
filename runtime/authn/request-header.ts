// The authenticating proxy (`--requestheader-*`, k8s.io/apiserver's headerrequest behind an x509 verifier):
// a request whose client certificate verifies against the request-header CA (and, when
// `--requestheader-allowed-names` is set, has one of those common names) is from the user its headers name:
// the first non-empty username header, the first non-empty uid header, every value of every group header,
// and extra from each header with an extra prefix (the rest of its name lowercased and percent-decoded).
// The headers are then removed so that later stages never see them.
import {
  type Authenticated,
  AuthenticationError,
  type AuthenticationRequest,
  type RequestAuthenticator,
} from "../access/authenticator.js";
import { CertificatePool } from "./certificate-pool.js";
import { commonNameOf, verifiedClientLeaf } from "./client-certificate.js";
import { unescapeExtraKey } from "./impersonation.js";

/** The `--requestheader-*` flags of kube-apiserver (kube leaves the header lists empty by default). */
export interface RequestHeaderOptions {
  /** `--requestheader-client-ca-file`: the CAs that sign the proxy's client certificate. */
  clientCaFile: string;
  /** `--requestheader-allowed-names`: the proxy's allowed common names; empty allows any. */
  allowedNames?: readonly string[];
  /** `--requestheader-username-headers`, e.g. X-Remote-User. */
  usernameHeaders?: readonly string[];
  /** `--requestheader-uid-headers`, e.g. X-Remote-Uid. */
  uidHeaders?: readonly string[];
  /** `--requestheader-group-headers`, e.g. X-Remote-Group. */
  groupHeaders?: readonly string[];
  /** `--requestheader-extra-headers-prefix`, e.g. X-Remote-Extra-. */
  extraHeadersPrefix?: readonly string[];
}

/**
 * A request with Node's `headersDistinct` (IncomingMessage.headersDistinct), which keeps repeated header lines
 * apart as Go's http.Header does; without it a repeated header reads as one value, as Node joins it.
 */

function headerNames(flag: string, names: readonly string[] = []): string[] {
  return names.map((name) => {
    const trimmed = name.trim();
    if (trimmed === "") throw new Error(`empty value in "${flag}"`);
    return trimmed.toLowerCase();
  });
}

function valuesOf(request: AuthenticationRequest, name: string): string[] {
  const distinct = request.headersDistinct?.[name];
  if (distinct !== undefined) return distinct;
  const value = request.headers[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function headerKeys(request: AuthenticationRequest): string[] {
  return Object.keys(request.headersDistinct ?? request.headers);
}

export class RequestHeaderAuthenticator implements RequestAuthenticator {
  private readonly allowedNames: readonly string[];
  private readonly usernameHeaders: string[];
  private readonly uidHeaders: string[];
  private readonly groupHeaders: string[];
  private readonly extraPrefixes: string[];

  constructor(
    private readonly pool: CertificatePool,
    options: Omit<RequestHeaderOptions, "clientCaFile">,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.allowedNames = options.allowedNames ?? [];
    this.usernameHeaders = headerNames("requestheader-username-headers", options.usernameHeaders);
    this.uidHeaders = headerNames("requestheader-uid-headers", options.uidHeaders);
    this.groupHeaders = headerNames("requestheader-group-headers", options.groupHeaders);
    this.extraPrefixes = headerNames("requestheader-extra-headers-prefix", options.extraHeadersPrefix);
  }

  /** Reads the CA file as kube does (errors name it `request-header::<file>`). */
  static fromOptions(options: RequestHeaderOptions): RequestHeaderAuthenticator {
    return new RequestHeaderAuthenticator(CertificatePool.fromFile("request-header", options.clientCaFile), options);
  }

  /** The CAs a proxy's certificate may come from, for the TLS server's `ca`. */
  certificateAuthorities(): string[] {
    return this.pool.pem();
  }

  async authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined> {
    const leaf = verifiedClientLeaf(this.pool, request, this.now());
    if (leaf === undefined) return undefined;
    const commonName = commonNameOf(leaf);
    if (this.allowedNames.length > 0 && !this.allowedNames.includes(commonName)) {
      throw new AuthenticationError(`x509: subject with cn=${commonName} is not in the allowed list`);
    }
    const first = (names: readonly string[]) =>
      names.map((name) => valuesOf(request, name)[0] ?? "").find((value) => value !== "") ?? "";
    const name = first(this.usernameHeaders);
    if (name === "") return undefined;
    const uid = first(this.uidHeaders);
    const groups = this.groupHeaders.flatMap((header) => valuesOf(request, header).filter((value) => value !== ""));
    const extra: Record<string, string[]> = {};
    for (const prefix of this.extraPrefixes) {
      for (const header of headerKeys(request)) {
        if (!header.startsWith(prefix)) continue;
        const key = unescapeExtraKey(header.slice(prefix.length));
        extra[key] = [...(extra[key] ?? []), ...valuesOf(request, header)];
      }
    }
    this.clearHeaders(request);
    return {
      user: {
        name,
        groups,
        ...(uid === "" ? {} : { uid }),
        ...(Object.keys(extra).length === 0 ? {} : { extra }),
      },
    };
  }

  /** Removes every header this authenticator reads (kube also does so after any successful authentication). */
  clearHeaders(request: AuthenticationRequest): void {
    const named = new Set([...this.usernameHeaders, ...this.uidHeaders, ...this.groupHeaders]);
    for (const headers of [request.headers, request.headersDistinct]) {
      if (headers === undefined) continue;
      for (const header of Object.keys(headers)) {
        if (named.has(header) || this.extraPrefixes.some((prefix) => header.startsWith(prefix))) delete headers[header];
      }
    }
  }
}
