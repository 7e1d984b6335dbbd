// The request authenticator kube-apiserver builds (pkg/kubeapiserver/authenticator/config.go): the
// authenticating proxy, client certificates, then bearer tokens through one union of token authenticators
// (token file, the callers' own — service accounts, bootstrap tokens, JWT — then the webhook), tried in
// order; the first success wins and, when none succeeds, their errors together are the error. Every
// authenticated user gets `system:authenticated`. Anonymous comes last and only when nobody had an opinion:
// a bad credential is a 401, never anonymous. After a success the credentials' headers are removed, as
// kube's authentication filter removes them.

import {
  type Authenticated,
  AuthenticationError,
  type AuthenticationRequest,
  type RequestAuthenticator,
  type TokenAuthenticator,
} from "../access/authenticator.js";
import { allAuthenticated, allUnauthenticated, anonymousUser } from "../access/user-info.js";
import { aggregateMessage } from "../errors/aggregate.js";
import { AnonymousAuthenticator, type AnonymousOptions } from "./anonymous.js";
import { BearerTokenAuthenticator } from "./bearer-token.js";
import { CertificatePool } from "./certificate-pool.js";
import { ClientCertificateAuthenticator } from "./client-certificate.js";
import { RequestHeaderAuthenticator, type RequestHeaderOptions } from "./request-header.js";
import { CachedTokenAuthenticator } from "./token-cache.js";
import { tokenFileAuthenticator } from "./token-file.js";
import { type WebhookTokenOptions, webhookTokenAuthenticator } from "./webhook-token.js";

/** Go's utilerrors.Aggregate text: one error as it is; several flattened, each message once, in brackets. */
function flattenedMessage(errors: readonly Error[]): string {
  if (errors.length === 1) return errors[0]?.message ?? "";
  const messages: string[] = [];
  const visit = (error: Error): void => {
    if (error instanceof AggregateAuthenticationError) error.errors.forEach(visit);
    else messages.push(error.message);
  };
  errors.forEach(visit);
  return aggregateMessage(messages);
}

/** Several errors as one. */
export class AggregateAuthenticationError extends AuthenticationError {
  constructor(readonly errors: readonly Error[]) {
    super(flattenedMessage(errors));
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Kube answers 401 for any error an authenticator returns. */
function asAuthenticationError(errors: readonly unknown[]): AuthenticationError {
  const [only] = errors;
  return errors.length === 1 && only instanceof AuthenticationError
    ? only
    : new AggregateAuthenticationError(errors.map(asError));
}

/** The first attempt with an answer wins; with none, the errors (if any) together are thrown. */
async function firstAnswer<T>(
  attempts: readonly (() => Promise<T | undefined>)[],
  failOnError: boolean,
): Promise<T | undefined> {
  const errors: unknown[] = [];
  for (const attempt of attempts) {
    let answer: T | undefined;
    try {
      answer = await attempt();
    } catch (error) {
      if (failOnError) throw asAuthenticationError([error]);
      errors.push(error);
      continue;
    }
    if (answer !== undefined) return answer;
  }
  if (errors.length > 0) throw asAuthenticationError(errors);
  return undefined;
}

/** kube's request union: `failOnError` stops at the first error (union.NewFailOnError). */
export class RequestAuthenticatorUnion implements RequestAuthenticator {
  constructor(
    private readonly authenticators: readonly RequestAuthenticator[],
    private readonly failOnError = false,
  ) {}

  authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined> {
    return firstAnswer(
      this.authenticators.map((authenticator) => () => authenticator.authenticate(request)),
      this.failOnError,
    );
  }
}

/** kube's token union: the first authenticator accepting the token wins; errors are aggregated. */
export class TokenAuthenticatorUnion implements TokenAuthenticator {
  constructor(private readonly authenticators: readonly TokenAuthenticator[]) {}

  authenticateToken(token: string, audiences?: readonly string[]): Promise<Authenticated | undefined> {
    return firstAnswer(
      this.authenticators.map((authenticator) => () => authenticator.authenticateToken(token, audiences)),
      false,
    );
  }
}

/** kube's AuthenticatedGroupAdder: not for system:anonymous, nor when either all-group is already there. */
export function withAuthenticatedGroup(result: Authenticated): Authenticated {
  const { user } = result;
  if (
    user.name === anonymousUser ||
    user.groups.includes(allAuthenticated) ||
    user.groups.includes(allUnauthenticated)
  ) {
    return result;
  }
  return { ...result, user: { ...user, groups: [...user.groups, allAuthenticated] } };
}

function addAuthenticatedGroup(authenticator: RequestAuthenticator): RequestAuthenticator {
  return {
    authenticate: async (request) => {
      const result = await authenticator.authenticate(request);
      return result === undefined ? undefined : withAuthenticatedGroup(result);
    },
  };
}

/**
 * An authenticator that knows nothing of audiences (token file, bootstrap tokens) accepts a token only for
 * the API server's own audiences, and answers with the ones both share (kube's WrapAudienceAgnosticToken).
 */
export class AudienceAgnosticTokenAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly apiAudiences: readonly string[],
    private readonly delegate: TokenAuthenticator,
  ) {}

  async authenticateToken(token: string, audiences?: readonly string[]): Promise<Authenticated | undefined> {
    const wanted = audiences !== undefined && audiences.length > 0 ? audiences : this.apiAudiences;
    if (wanted.length === 0) return this.delegate.authenticateToken(token);
    const shared = this.apiAudiences.filter((audience) => wanted.includes(audience));
    if (shared.length === 0) return undefined;
    const result = await this.delegate.authenticateToken(token);
    if (result === undefined) return undefined;
    if (result.audiences !== undefined && result.audiences.length > 0) {
      throw new AuthenticationError(
        `audience agnostic authenticator wrapped an authenticator that returned audiences: ${JSON.stringify(result.audiences)}`,
      );
    }
    return { ...result, audiences: shared };
  }
}

const noTokens: TokenAuthenticator = { authenticateToken: async () => undefined };
const nobody: RequestAuthenticator = { authenticate: async () => undefined };

/** kube's authentication filter around the chain: API audiences checked, credential headers removed. */
class RequestAuthentication implements RequestAuthenticator {
  constructor(
    private readonly chain: RequestAuthenticator,
    private readonly apiAudiences: readonly string[],
    private readonly proxy: RequestHeaderAuthenticator | undefined,
  ) {}

  async authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined> {
    const result = await this.chain.authenticate(request);
    if (result === undefined) return undefined;
    const audiences = result.audiences ?? [];
    if (this.apiAudiences.length > 0 && audiences.length > 0 && !audiences.some((a) => this.apiAudiences.includes(a))) {
      throw new AuthenticationError(
        `unable to match the audience: [${audiences.join(" ")}] , accepted: [${this.apiAudiences.join(" ")}]`,
      );
    }
    delete request.headers.authorization;
    if (request.headersDistinct !== undefined) delete request.headersDistinct.authorization;
    this.proxy?.clearHeaders(request);
    return result;
  }
}

/** A token authenticator from elsewhere (service accounts, bootstrap tokens, JWT, kapi's admin token). */
export interface ExtraTokenAuthenticator {
  authenticator: TokenAuthenticator;
  /** It ignores audiences (bootstrap and static tokens): accept its tokens only for the API audiences. */
  audienceAgnostic?: boolean;
}

/** kube-apiserver's authentication flags (and the AuthenticationConfiguration's anonymous stanza). */
export interface AuthenticationOptions {
  /** `--anonymous-auth` or the configuration's `anonymous`; kube's default (when absent) is enabled. */
  anonymous?: AnonymousOptions;
  /** `--api-audiences`: the audiences of tokens meant for this API server. */
  apiAudiences?: readonly string[];
  /** `--client-ca-file`. */
  clientCaFile?: string;
  /** More trusted client CAs as PEM (kapi's own CA, which issues the admin client certificate). */
  clientCaCertificates?: string;
  /** The AllowParsingUserUIDFromCertAuth feature gate (default on): client certificates carry a uid. */
  certificateUid?: boolean;
  /** `--token-auth-file`. */
  tokenAuthFile?: string;
  /** `--requestheader-client-ca-file` and the other `--requestheader-*` flags. */
  requestHeader?: RequestHeaderOptions;
  /** Token authenticators placed after the token file and before the webhook, in kube's order. */
  tokenAuthenticators?: readonly ExtraTokenAuthenticator[];
  /** `--authentication-token-webhook-*`. */
  webhook?: WebhookTokenOptions;
  /** How long the token union's answers are kept; kube: successes 10 s, failures not at all. */
  tokenCache?: { successTtlMs: number; failureTtlMs: number };
  /** Hears of records the token file skips or replaces. */
  warn?: (message: string) => void;
}

/**
 * The TLS server options client certificates need: ask for one, let the authenticators judge it, and list the
 * CAs (clients that pick a certificate by the server's acceptable CAs need them; client-go sends its own anyway).
 */
export interface ClientCertificateTlsOptions {
  requestCert: boolean;
  rejectUnauthorized: false;
  ca?: string[];
}

export interface Authentication {
  /** Every request goes through it; its request may carry `path` and `headersDistinct` (AuthenticationRequest). */
  authenticator: RequestAuthenticator;
  /** The token union with system:authenticated added, for TokenReview. */
  tokenAuthenticator: TokenAuthenticator;
  tlsOptions: ClientCertificateTlsOptions;
}

function clientCertificatePool(options: AuthenticationOptions): CertificatePool | undefined {
  const pools = [
    ...(options.clientCaFile === undefined ? [] : [CertificatePool.fromFile("client-ca-bundle", options.clientCaFile)]),
    ...(options.clientCaCertificates === undefined ? [] : [CertificatePool.fromPem(options.clientCaCertificates)]),
  ];
  return pools.length === 0 ? undefined : new CertificatePool(pools.flatMap((pool) => pool.certificates));
}

function tokenUnion(options: AuthenticationOptions, apiAudiences: readonly string[]): TokenAuthenticator | undefined {
  const tokens: TokenAuthenticator[] = [];
  if (options.tokenAuthFile !== undefined) {
    const file = tokenFileAuthenticator(options.tokenAuthFile, options.warn);
    tokens.push(new AudienceAgnosticTokenAuthenticator(apiAudiences, file));
  }
  for (const { authenticator, audienceAgnostic } of options.tokenAuthenticators ?? []) {
    tokens.push(audienceAgnostic ? new AudienceAgnosticTokenAuthenticator(apiAudiences, authenticator) : authenticator);
  }
  if (options.webhook !== undefined) tokens.push(webhookTokenAuthenticator(options.webhook, apiAudiences));
  if (tokens.length === 0) return undefined;
  const union = new TokenAuthenticatorUnion(tokens);
  const { successTtlMs, failureTtlMs } = options.tokenCache ?? { successTtlMs: 10_000, failureTtlMs: 0 };
  if (successTtlMs <= 0 && failureTtlMs <= 0) return union;
  return new CachedTokenAuthenticator(union, { cacheErrors: true, successTtlMs, failureTtlMs });
}

/**
 * Builds the authenticators from the flags; files are read now and their errors (kube's texts) are startup
 * errors.
 */
export function buildAuthentication(options: AuthenticationOptions): Authentication {
  const apiAudiences = options.apiAudiences ?? [];
  const authenticators: RequestAuthenticator[] = [];
  const ca: string[] = [];
  const proxy = options.requestHeader && RequestHeaderAuthenticator.fromOptions(options.requestHeader);
  if (proxy !== undefined) {
    authenticators.push(proxy);
    ca.push(...proxy.certificateAuthorities());
  }
  const clientCas = clientCertificatePool(options);
  if (clientCas !== undefined) {
    authenticators.push(new ClientCertificateAuthenticator(clientCas, options.certificateUid ?? true));
    ca.push(...clientCas.pem());
  }
  const tokens = tokenUnion(options, apiAudiences);
  if (tokens !== undefined) authenticators.push(new BearerTokenAuthenticator(tokens));
  const anonymous =
    (options.anonymous?.enabled ?? true) ? new AnonymousAuthenticator(options.anonymous?.conditions) : undefined;
  let chain: RequestAuthenticator = anonymous ?? nobody;
  if (authenticators.length > 0) {
    chain = addAuthenticatedGroup(new RequestAuthenticatorUnion(authenticators));
    if (anonymous !== undefined) chain = new RequestAuthenticatorUnion([chain, anonymous], true);
  }
  return {
    authenticator: new RequestAuthentication(chain, apiAudiences, proxy),
    tokenAuthenticator:
      tokens === undefined
        ? noTokens
        : {
            authenticateToken: async (token, audiences) => {
              const result = await tokens.authenticateToken(token, audiences);
              return result === undefined ? undefined : withAuthenticatedGroup(result);
            },
          },
    tlsOptions:
      ca.length > 0
        ? { requestCert: true, rejectUnauthorized: false, ca }
        : { requestCert: false, rejectUnauthorized: false },
  };
}
