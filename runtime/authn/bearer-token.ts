// `Authorization: Bearer <token>` handed to token authenticators (k8s.io/apiserver's bearertoken): a request
// without the header is not this authenticator's; a token no authenticator accepts is an error (401), never
// anonymous. An empty token is ignored, as kube ignores it.
import {
  type Authenticated,
  AuthenticationError,
  type AuthenticationRequest,
  type RequestAuthenticator,
  type TokenAuthenticator,
} from "../access/authenticator.js";

/** kube's warning for `Bearer  <token>`: the second space makes the token empty, and the header is ignored. */
export const spacedTokenWarning =
  "the provided Authorization header contains extra space before the bearer token, and is ignored";

/** Go's strings.SplitN(s, " ", 3). */
function splitOnSpaces(s: string): string[] {
  const first = s.indexOf(" ");
  if (first < 0) return [s];
  const rest = s.slice(first + 1);
  const second = rest.indexOf(" ");
  return second < 0 ? [s.slice(0, first), rest] : [s.slice(0, first), rest.slice(0, second), rest.slice(second + 1)];
}

/**
 * The header cut as kube cuts it: trimmed, then split at single spaces into the scheme, the token and the
 * rest; undefined when it is no bearer header at all (another scheme, or a tab where the space belongs).
 */
function bearerParts(header: string | undefined): string[] | undefined {
  const parts = splitOnSpaces((header ?? "").trim());
  return parts.length >= 2 && (parts[0] as string).toLowerCase() === "bearer" ? parts : undefined;
}

/** The token of an `Authorization: Bearer` header; undefined when there is none or it is empty. */
export function bearerToken(header: string | undefined): string | undefined {
  const token = bearerParts(header)?.[1];
  return token === "" ? undefined : token;
}

export class BearerTokenAuthenticator implements RequestAuthenticator {
  constructor(private readonly tokens: TokenAuthenticator) {}

  async authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined> {
    const parts = bearerParts(request.headers.authorization);
    const token = parts?.[1];
    if (token === undefined || token === "") {
      if (parts?.length === 3) request.warn?.(spacedTokenWarning);
      return undefined;
    }
    const result = await this.tokens.authenticateToken(token);
    if (result === undefined) throw new AuthenticationError("invalid bearer token");
    return result;
  }
}
