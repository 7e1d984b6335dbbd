// Hostile request paths that are still valid HTTP: unknown groups, versions and resources, odd names,
// subresources kapi may not serve, legacy watch and proxy forms, encoded dots and slashes.
import { collectionPath, type Kind } from "./corpus.js";
import type { Prng } from "./prng.js";
import { encodeQueryValue } from "./query-values.js";

const names = [
  "h4-seed",
  "",
  "..",
  ".",
  "%2e%2e",
  "%2F",
  "a%2Fb",
  "%00",
  "%zz",
  "UPPER",
  "-lead",
  "n".repeat(254),
  "a.b",
  "a_b",
  "%C3%A9",
  "%F0%9F%99%82",
  "%ED%A0%80",
  "%FF",
  "~",
  ";x",
];

const subresources = [
  "status",
  "scale",
  "binding",
  "eviction",
  "log",
  "exec",
  "attach",
  "portforward",
  "proxy",
  "proxy/a/b",
  "token",
  "finalize",
  "approval",
  "ephemeralcontainers",
  "resize",
  "bogus",
  "status/extra",
  "",
];

const odd = [
  "/api/v1/watch",
  "/api/v1/watch/namespaces",
  "/api/v1/proxy/nodes/x",
  "/apis/apps",
  "/apis/apps/v1beta1",
  "/apis/apps/v9/deployments",
  "/apis/nope.example.com/v1/things",
  "/apis/a..b/v1/x",
  "/api/v2",
  "/api/v1/namespaces//configmaps",
  "/api/v1/namespaces/%20/configmaps",
  "/api/v1/bogus",
  "/api/v1/namespaces/h4/bogus/x",
  "/api/v1/namespaces/h4/configmaps/a/b/c/d/e",
  "/apis/",
  "/openapi/v3/apis/apps/v1?hash=x",
  "/openapi/v3/nope",
  "/openapi/v2?timeout=x",
  "/livez/nope",
  "/readyz?exclude=x&exclude=",
  "/healthz/%zz",
  "/version/x",
  "/.well-known/",
  "/logs/../etc/passwd",
  "/debug/pprof/",
  "/metrics/slis",
  "/api/v1/namespaces/h4/pods/x/proxy/%2e%2e/%2e%2e/",
  "/ap%69/v1",
  "/api/v1/namespaces/h4/configmaps?%",
];

/** A path that is well-formed HTTP but hostile to routing. */
export function hostilePath(prng: Prng, kind: Kind, ns: string): string {
  const base = collectionPath(
    kind,
    prng.chance(0.8) ? ns : prng.pick(["", "%2F", "UPPER", "n".repeat(70), "h4-absent"]),
  );
  switch (prng.int(6)) {
    case 0:
      return `${base}/${prng.pick(names)}`;
    case 1:
      return `${base}/${prng.pick(names)}/${prng.pick(subresources)}`;
    case 2:
      return base.replace(/^\/(apis?\/[^/]+(?:\/v1)?)\//, "/$1/watch/");
    case 3:
      return prng.pick(odd);
    case 4:
      return `${base}${prng.pick(["/", "//", "/./", "/h4-seed/", "?", "#frag", "%2F", "/%2e"])}`;
    default:
      return `/${encodeQueryValue(prng.pick(names))}${base}`;
  }
}
