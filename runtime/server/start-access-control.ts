// Builds the server's access control from kube-apiserver's flags: the authenticator chain (proxy headers,
// client certificates, then bearer tokens: kapi's admin token, the token file, service account tokens,
// bootstrap tokens, JWT authenticators and the token webhook), and the authorizer chain (system:masters,
// then --authorization-mode or --authorization-config; kapi's default is Node,RBAC as clusters run it).
// What follows the server's objects (the RBAC index, the node graph, the JWT issuers' keys) starts here
// and stops with close().
import type { KeyObject } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { TokenAuthenticator } from "../access/authenticator.js";
import { adminUser } from "../access/user-info.js";
import type { AccessControl } from "../authn/access-control.js";
import type { AnonymousOptions } from "../authn/anonymous.js";
import { BootstrapTokenAuthenticator } from "../authn/bootstrap-token.js";
import { loadAuthenticationConfig } from "../authn/jwt/authentication-config.js";
import { JwtAuthenticators } from "../authn/jwt/jwt-authenticators.js";
import { watchAuthenticationConfig } from "../authn/jwt/watch-authentication-config.js";
import type { RequestHeaderOptions } from "../authn/request-header.js";
import {
  type ServiceAccountOptions,
  type ServiceAccountTokens,
  serviceAccountTokens,
} from "../authn/service-account/service-account-tokens.js";
import { StaticTokenAuthenticator } from "../authn/static-tokens.js";
import {
  buildAuthentication,
  type ClientCertificateTlsOptions,
  type ExtraTokenAuthenticator,
} from "../authn/union-authenticator.js";
import type { WebhookTokenOptions } from "../authn/webhook-token.js";
import type { AuthorizationOptions } from "../authz/authorization-config.js";
import { createAuthorizer } from "../authz/build-authorizer.js";
import { startNodeAuthorizer } from "../authz/node/start-node-authorizer.js";
import { RbacAuthorizer } from "../authz/rbac/rbac-authorizer.js";
import { RbacIndex } from "../authz/rbac/rbac-index.js";
import type { ErrorLog } from "../http/write-error.js";
import type { MetricRegistry } from "../metrics/metric-registry.js";
import type { ResourceApi } from "../resources/resource-api.js";

/** kube-apiserver's authentication flags. */
export interface AuthenticationFlags extends ServiceAccountOptions {
  /** `--anonymous-auth` (default true). */
  anonymousAuth?: boolean;
  /** `--client-ca-file`; kapi's own CA is trusted besides, for the admin certificate. */
  clientCaFile?: string;
  /** `--token-auth-file`. */
  tokenAuthFile?: string;
  /** `--enable-bootstrap-token-auth`. */
  enableBootstrapTokenAuth?: boolean;
  /** `--authentication-config`: an AuthenticationConfiguration (JWT authenticators, anonymous), reloaded on change. */
  authenticationConfig?: string;
  /** `--requestheader-*`. */
  requestHeader?: RequestHeaderOptions;
  /** `--authentication-token-webhook-*`. */
  tokenWebhook?: WebhookTokenOptions;
  /** How long token answers are kept (kube: successes 10 s); tests that revoke tokens turn it off with 0. */
  tokenCacheTtlMs?: number;
}

export interface AccessControlOptions {
  authentication?: AuthenticationFlags;
  /** Default `--authorization-mode=Node,RBAC`. */
  authorization?: AuthorizationOptions;
  /** The token written into plain-HTTP kubeconfigs; always a system:masters credential. */
  adminToken: string;
  /** kapi's CA (PEM): its client certificates authenticate (the admin kubeconfig's). */
  caCert?: string;
  /** Signs service account tokens when no --service-account-signing-key-file is given. */
  serviceAccountSigningKey: KeyObject;
  /** AllowParsingUserUIDFromCertAuth: a client certificate's subject uid attribute is the user's uid (default). */
  certificateUid?: boolean;
  /** The server's registry (apiserver_authorization_decisions_total). */
  metrics?: MetricRegistry;
  log: ErrorLog;
}

export interface RunningAccessControl {
  access: AccessControl;
  tlsOptions: ClientCertificateTlsOptions;
  serviceAccounts: ServiceAccountTokens;
  /** RBAC's index when RBAC is in the chain (its default roles are then kept at start, its escalation checked). */
  rbac?: RbacIndex;
  /** Resolves once the authorizers that follow objects have read them (RBAC, Node). */
  ready: Promise<void>;
  close(): Promise<void>;
}

const defaultAuthorization: AuthorizationOptions = { authorizationMode: "Node,RBAC" };

function anonymousOptions(flags: AuthenticationFlags, configured: AnonymousOptions | undefined): AnonymousOptions {
  if (configured !== undefined) {
    if (flags.anonymousAuth !== undefined) {
      throw new Error(
        "anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file",
      );
    }
    return configured;
  }
  return { enabled: flags.anonymousAuth ?? true };
}

export function startAccessControl(resources: ResourceApi, options: AccessControlOptions): RunningAccessControl {
  const flags = options.authentication ?? {};
  const abort = new AbortController();
  // Every informer here (RBAC's four kinds, the node graph's) listens on this one signal.
  setMaxListeners(64, abort.signal);
  const context = { signal: abort.signal, log: options.log };
  const closers: (() => Promise<void> | void)[] = [];
  const waits: Promise<unknown>[] = [];

  const serviceAccounts = serviceAccountTokens(flags, { resources, signingKey: options.serviceAccountSigningKey });
  const tokens: ExtraTokenAuthenticator[] = [
    { authenticator: new StaticTokenAuthenticator([[options.adminToken, adminUser]]), audienceAgnostic: true },
    { authenticator: serviceAccounts.authenticator },
  ];
  if (flags.enableBootstrapTokenAuth) {
    tokens.push({ authenticator: new BootstrapTokenAuthenticator(resources), audienceAgnostic: true });
  }
  let anonymous: AnonymousOptions | undefined;
  if (flags.authenticationConfig !== undefined) {
    const disallowedIssuers = serviceAccounts.issuer.issuers;
    const file = loadAuthenticationConfig(flags.authenticationConfig, { disallowedIssuers });
    anonymous = file.configuration.anonymous;
    const jwt = new JwtAuthenticators(file.configuration.jwt, {
      disallowedIssuers,
      log: (message) => options.log("JWT authenticator", message),
    });
    const watch = watchAuthenticationConfig(flags.authenticationConfig, file, (c) => jwt.update(c.jwt), {
      disallowedIssuers,
      onError: (error) => options.log("authentication configuration not reloaded", error),
    });
    closers.push(
      () => watch.close(),
      () => jwt.close(),
    );
    tokens.push({ authenticator: jwt as TokenAuthenticator, audienceAgnostic: true });
  }
  const authentication = buildAuthentication({
    anonymous: anonymousOptions(flags, anonymous),
    apiAudiences: serviceAccounts.issuer.apiAudiences,
    ...(flags.clientCaFile === undefined ? {} : { clientCaFile: flags.clientCaFile }),
    ...(options.caCert === undefined ? {} : { clientCaCertificates: options.caCert }),
    ...(options.certificateUid === undefined ? {} : { certificateUid: options.certificateUid }),
    ...(flags.tokenAuthFile === undefined ? {} : { tokenAuthFile: flags.tokenAuthFile }),
    ...(flags.requestHeader === undefined ? {} : { requestHeader: flags.requestHeader }),
    ...(flags.tokenWebhook === undefined ? {} : { webhook: flags.tokenWebhook }),
    ...(flags.tokenCacheTtlMs === undefined
      ? {}
      : { tokenCache: { successTtlMs: flags.tokenCacheTtlMs, failureTtlMs: 0 } }),
    tokenAuthenticators: tokens,
    warn: (message) => options.log("token file", message),
  });

  const rbacIndex = new RbacIndex(resources);
  let rbac = false;
  let rbacRun: Promise<void> | undefined;
  const served = createAuthorizer(
    options.authorization ?? defaultAuthorization,
    {
      rbac: () => {
        rbac = true;
        rbacRun = rbacIndex.run(context);
        // With RBAC's API switched off the index never lists; the server starts unready (start-server.ts).
        if (resources.kinds.servesBuiltin("rbac.authorization.k8s.io", "v1")) waits.push(rbacIndex.ready);
        return new RbacAuthorizer(rbacIndex);
      },
      node: () => {
        const node = startNodeAuthorizer(resources, context);
        waits.push(node.ready);
        closers.push(() => node.done);
        return node.authorizer;
      },
    },
    {
      log: (message, error) => options.log(message, error),
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    },
  );
  served.start();
  closers.push(() => served.stop());

  return {
    access: {
      authenticator: authentication.authenticator,
      tokenAuthenticator: authentication.tokenAuthenticator,
      authorizer: served.authorizer,
      serviceAccountTokens: serviceAccounts.issuer,
    },
    tlsOptions: authentication.tlsOptions,
    serviceAccounts,
    ...(rbac ? { rbac: rbacIndex } : {}),
    ready: Promise.all(waits).then(() => undefined),
    async close() {
      abort.abort();
      for (const close of closers) await close();
      await rbacRun;
    },
  };
}
