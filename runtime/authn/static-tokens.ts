// Tokens known in advance: the admin token kapi generates at start and the entries of --token-auth-file.
// Lookups compare in constant time so that a token cannot be guessed byte by byte.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Authenticated, TokenAuthenticator } from "../access/authenticator.js";
import type { UserInfo } from "../access/user-info.js";

function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

export class StaticTokenAuthenticator implements TokenAuthenticator {
  private readonly entries: { digest: Buffer; user: UserInfo }[];

  constructor(tokens: Iterable<[string, UserInfo]>) {
    this.entries = [...tokens].map(([token, user]) => ({ digest: digest(token), user }));
  }

  async authenticateToken(token: string): Promise<Authenticated | undefined> {
    const wanted = digest(token);
    let found: UserInfo | undefined;
    for (const entry of this.entries) if (timingSafeEqual(entry.digest, wanted)) found ??= entry.user;
    return found === undefined ? undefined : { user: { ...found, groups: [...found.groups] } };
  }
}
