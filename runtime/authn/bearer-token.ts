// `Authorization: Bearer <token>` handed to token authenticators (k8s.io/apiserver's bearertoken): a request
// without the header is not this authenticator's; a token no authenticator accepts is an error (401), never
// anonymous. An empty token is ignored, as kube ignores it.
import {
  type Authenticated,
  AuthenticationError,
  type AuthenticationRequest,
  type RequestAuthenticator,
  type TokenAuthenticator,
} from "./authenticator.js";

/** The token of an `Authorization: Bearer` header; undefined when there is none or it is empty. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*bearer\s+(.*?)\s*$/i.exec(header);
  const token = match?.[1];
  return token === undefined || token === "" ? undefined : token;
}

export class BearerTokenAuthenticator implements RequestAuthenticator {
  constructor(private readonly tokens: TokenAuthenticator) {}

  async authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined> {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return undefined;
    const result = await this.tokens.authenticateToken(token);
    if (result === undefined) throw new AuthenticationError("invalid bearer token");
    return result;
  }
}
