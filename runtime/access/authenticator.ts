// Authenticators: each looks at the credentials of one kind a request carries (a client certificate, a
// bearer token, proxy headers). An authenticator answers undefined when the request carries none of its
// kind, the user when they are good, and throws AuthenticationError when they are bad.

import type { X509Certificate } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { UserInfo } from "./user-info.js";

export interface AuthenticationRequest {
  headers: IncomingHttpHeaders;
  /** The URL path (anonymous access may be limited to some paths). */
  path?: string;
  /** Each header's lines apart, as Node keeps them (`X-Remote-Group` repeated names several groups). */
  headersDistinct?: Record<string, string[] | undefined>;
  /** The client certificate chain the TLS peer sent, leaf first; empty when none (or plain HTTP). Not verified. */
  peerCertificates(): readonly X509Certificate[];
  /** Adds a warning (a `Warning: 299` header) to the response, as kube's authenticators may. */
  warn?(message: string): void;
}

export interface Authenticated {
  user: UserInfo;
  /** The audiences the credential was checked against (TokenReview's status.audiences). */
  audiences?: string[];
}

/** Bad credentials; the message reaches logs and TokenReview's status.error, never a 401's body. */
export class AuthenticationError extends Error {
  override name = "AuthenticationError";
}

export interface RequestAuthenticator {
  authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined>;
}

/**
 * A bearer-token authenticator. `audiences` are the ones the token must be for; undefined means the API
 * server's own audiences.
 */
export interface TokenAuthenticator {
  authenticateToken(token: string, audiences?: readonly string[]): Promise<Authenticated | undefined>;
}
