// Who is asking. Until the auth work lands, the one identity is the admin whose bearer token the server
// generated at start and wrote into the admin kubeconfig; any other request is 401 Unauthorized.
import { timingSafeEqual } from "node:crypto";
import { unauthorized } from "../../errors/status-error.js";
import type { Stage, UserInfo } from "../context.js";

export const adminUser: UserInfo = { name: "kapi-admin", groups: ["system:masters", "system:authenticated"] };

function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const authentication: Stage = {
  name: "authentication",
  async run(ctx, next) {
    const token = bearerToken(ctx.req.headers.authorization);
    if (token === undefined || !sameSecret(token, ctx.server.adminToken)) throw unauthorized();
    ctx.user = adminUser;
    await next();
  },
};
