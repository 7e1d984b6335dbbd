// Who may do what: the authenticator every request goes through, the token authenticators TokenReview
// asks, and the authorizer chain. startServer builds one from its options (docs/authentication.md,
// docs/authorization.md).
import type { RequestAuthenticator, TokenAuthenticator } from "../access/authenticator.js";
import type { Authorizer } from "../access/authorizer.js";
import type { ServiceAccountTokenIssuer } from "./service-account/token-issuer.js";

export interface AccessControl {
  /** First success wins; bad credentials throw AuthenticationError; undefined: unauthenticated and refused. */
  authenticator: RequestAuthenticator;
  /** The bearer-token authenticators alone, as TokenReview uses them. */
  tokenAuthenticator: TokenAuthenticator;
  /** system:masters first, then the configured chain. */
  authorizer: Authorizer;
  /** Signs the tokens of `serviceaccounts/<name>/token`; absent: the subresource is not served (404). */
  serviceAccountTokens?: ServiceAccountTokenIssuer;
}
