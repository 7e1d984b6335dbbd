// The routes of the group/versions served by default; routes of disabled versions answer 404 like unknown paths.
import { servedGroupVersions } from "../../generated/discovery/served.js";
import { routes } from "../../generated/routes.js";
import { createRouteMatcher, type RouteMatch } from "../routing/match-route.js";

let matcher: ((path: string) => RouteMatch | undefined) | undefined;

export function servedRouteMatcher(): (path: string) => RouteMatch | undefined {
  if (!matcher) {
    const enabled = new Set(
      servedGroupVersions.filter((gv) => gv.enabledByDefault).map((gv) => `${gv.group}/${gv.version}`),
    );
    matcher = createRouteMatcher(routes.filter((r) => enabled.has(`${r.group}/${r.version}`)));
  }
  return matcher;
}
