// generated/routes.ts: every REST path template of every served resource, with the verb each HTTP method means
// there, as kube-apiserver installs them (k8s.io/apiserver/pkg/endpoints/installer.go).
import { resourceRoutes } from "../../runtime/routing/resource-routes.js";
import type { SchemaSet } from "../schema/schema-set.js";
import { type Emitter, generatedHeader } from "./emitter.js";
import { tsLiteral } from "./ts-literal.js";

export const routesPath = "routes.ts";

export const routesEmitter: Emitter = {
  name: "routes",
  emit(set: SchemaSet) {
    const served = set.servedKinds();
    const routes = served
      .flatMap((info) => (info.entry.resource ? resourceRoutes(info.gvk, info.entry.resource) : []))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const sources = [...new Set(served.map((k) => k.file.path))];
    const content =
      generatedHeader(sources) +
      `import type { Route } from "../runtime/routing/route.js";\n\n` +
      `export const routes: readonly Route[] = ${tsLiteral(routes)};\n`;
    return { files: [{ path: routesPath, content }] };
  },
};
