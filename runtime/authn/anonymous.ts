// Anonymous requests (`--anonymous-auth`, or AuthenticationConfiguration's `anonymous` with `enabled` and
// `conditions`): a request nobody else had an opinion on is `system:anonymous` in `system:unauthenticated`.
// With conditions, only requests to one of the listed paths (compared exactly, as kube compares
// req.URL.Path) are; others stay unauthenticated and are refused.
import type { Authenticated, AuthenticationRequest, RequestAuthenticator } from "../access/authenticator.js";
import { allUnauthenticated, anonymousUser } from "../access/user-info.js";

export interface AnonymousCondition {
  path: string;
}

/** `--anonymous-auth` (kube's default: enabled) or the configuration file's `anonymous` stanza. */
export interface AnonymousOptions {
  enabled: boolean;
  conditions?: readonly AnonymousCondition[];
}

export class AnonymousAuthenticator implements RequestAuthenticator {
  private readonly allowedPaths: ReadonlySet<string>;

  constructor(conditions: readonly AnonymousCondition[] = []) {
    this.allowedPaths = new Set(conditions.map((condition) => condition.path));
  }

  async authenticate(request: AuthenticationRequest): Promise<Authenticated | undefined> {
    if (this.allowedPaths.size > 0 && (request.path === undefined || !this.allowedPaths.has(request.path))) {
      return undefined;
    }
    return { user: { name: anonymousUser, groups: [allUnauthenticated] } };
  }
}
