// Parses what the request asks for and, for resource requests, finds its route among what the server serves.

import { parseRequestInfo } from "../../routing/request-info.js";
import type { Stage } from "../context.js";

export const requestInfo: Stage = {
  name: "requestInfo",
  async run(ctx, next) {
    const path = ctx.path;
    const info = parseRequestInfo(ctx.req.method ?? "GET", path, ctx.url.searchParams);
    ctx.info = info;
    if (info.isResourceRequest) {
      // The legacy `/watch/` segment after the version is a verb, not part of any route template.
      const base = info.group === "" ? `/api/${info.version}` : `/apis/${info.group}/${info.version}`;
      const legacyWatch = path.startsWith(`${base}/watch/`);
      const match = ctx.server.resources.kinds.matchRoute(
        legacyWatch ? base + path.slice(base.length + "/watch".length) : path,
      );
      if (match) ctx.route = match;
    }
    await next();
  },
};
