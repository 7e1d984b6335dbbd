// Impersonate-* headers: once the caller may impersonate all they name (runtime/authn/impersonation.ts),
// the request goes on as the impersonated user, and the headers are dropped so that nothing further in
// reads them. The caller stays known for the audit event.
import type { IncomingMessage } from "node:http";
import {
  type DistinctHeaders,
  extraHeaderPrefix,
  groupHeader,
  impersonatedUser,
  uidHeader,
  userHeader,
} from "../../authn/impersonation.js";
import type { Stage } from "../context.js";

/** Each occurrence of a header apart: Node's `headers` joins repeated ones with ", ". */
function distinctHeaders(req: IncomingMessage): DistinctHeaders {
  const distinct = (req as Partial<IncomingMessage>).headersDistinct;
  if (distinct !== undefined) return distinct;
  return Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [name, typeof value === "string" ? [value] : value]),
  );
}

function isImpersonationHeader(name: string): boolean {
  return name === userHeader || name === uidHeader || name === groupHeader || name.startsWith(extraHeaderPrefix);
}

function dropImpersonationHeaders(req: IncomingMessage): void {
  const distinct = (req as Partial<IncomingMessage>).headersDistinct;
  for (const headers of [req.headers, distinct ?? {}]) {
    for (const name of Object.keys(headers)) if (isImpersonationHeader(name)) delete headers[name];
  }
}

export const impersonation: Stage = {
  name: "impersonation",
  async run(ctx, next) {
    const headers = distinctHeaders(ctx.req);
    if (!Object.keys(headers).some(isImpersonationHeader)) return next();
    if (ctx.user === undefined) throw new Error("impersonation before authentication");
    const user = await impersonatedUser(ctx.user, headers, ctx.server.access.authorizer);
    if (user !== undefined) {
      ctx.authenticatedUser = ctx.user;
      ctx.user = user;
      dropImpersonationHeaders(ctx.req);
    }
    await next();
  },
};
