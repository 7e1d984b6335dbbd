// Where an upstream package lands in schemas/: its file, API group and protobuf package.
import { groupDir } from "../../generator/schema/schema-set.js";

export { groupDir };

export interface PackageTarget {
  /** schemas/<fileId>.yaml */
  fileId: string;
  /** API group and version; absent for packages that only share definitions. */
  group?: string;
  version?: string;
  openapiPrefix: string;
  protoPackage?: string;
}

const apimachinery: Record<string, Omit<PackageTarget, "openapiPrefix">> = {
  "io.k8s.apimachinery.pkg.apis.meta.v1": {
    fileId: "meta/v1",
    group: "meta.k8s.io",
    version: "v1",
    protoPackage: "k8s.io.apimachinery.pkg.apis.meta.v1",
  },
  "io.k8s.apimachinery.pkg.api.resource": {
    fileId: "meta/resource",
    protoPackage: "k8s.io.apimachinery.pkg.api.resource",
  },
  "io.k8s.apimachinery.pkg.util.intstr": {
    fileId: "meta/intstr",
    protoPackage: "k8s.io.apimachinery.pkg.util.intstr",
  },
  "io.k8s.apimachinery.pkg.runtime": { fileId: "meta/runtime", protoPackage: "k8s.io.apimachinery.pkg.runtime" },
  "io.k8s.apimachinery.pkg.version": { fileId: "meta/version" },
};

/** Upstream package directory name → API group, where the group is not `<name>.k8s.io`. */
const groupOfPackage: Record<string, string> = {
  core: "",
  apps: "apps",
  batch: "batch",
  autoscaling: "autoscaling",
  policy: "policy",
  extensions: "extensions",
  rbac: "rbac.authorization.k8s.io",
  flowcontrol: "flowcontrol.apiserver.k8s.io",
  apiserverinternal: "internal.apiserver.k8s.io",
};

/** Protobuf packages that have no OpenAPI definitions but carry kinds kapi needs (review payloads, discovery). */
export const protoOnlyPackages = [
  "k8s.io.api.admission.v1",
  "k8s.io.api.imagepolicy.v1alpha1",
  "k8s.io.api.apidiscovery.v2",
];

export function targetOfOpenApiPrefix(prefix: string): PackageTarget {
  const fixed = apimachinery[prefix];
  if (fixed) return { ...fixed, openapiPrefix: prefix };
  let m = /^io\.k8s\.api\.([a-z0-9]+)\.(v[a-z0-9]+)$/.exec(prefix);
  if (m) {
    const [, pkg = "", version = ""] = m;
    const group = groupOfPackage[pkg] ?? `${pkg}.k8s.io`;
    return {
      fileId: `${groupDir(group)}/${version}`,
      group,
      version,
      openapiPrefix: prefix,
      protoPackage: `k8s.io.api.${pkg}.${version}`,
    };
  }
  m = /^io\.k8s\.apiextensions-apiserver\.pkg\.apis\.apiextensions\.(v[a-z0-9]+)$/.exec(prefix);
  if (m) {
    const version = m[1] ?? "";
    return {
      fileId: `apiextensions.k8s.io/${version}`,
      group: "apiextensions.k8s.io",
      version,
      openapiPrefix: prefix,
      protoPackage: `k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.${version}`,
    };
  }
  m = /^io\.k8s\.kube-aggregator\.pkg\.apis\.apiregistration\.(v[a-z0-9]+)$/.exec(prefix);
  if (m) {
    const version = m[1] ?? "";
    // Upstream data carries no generated.proto for the aggregator; its numbers come from the overlay.
    return {
      fileId: `apiregistration.k8s.io/${version}`,
      group: "apiregistration.k8s.io",
      version,
      openapiPrefix: prefix,
      protoPackage: `k8s.io.kube_aggregator.pkg.apis.apiregistration.${version}`,
    };
  }
  throw new Error(`no schema file for upstream package ${prefix}`);
}

export function targetOfProtoPackage(protoPackage: string): PackageTarget {
  const m = /^k8s\.io\.api\.([a-z0-9]+)\.(v[a-z0-9]+)$/.exec(protoPackage);
  if (!m) throw new Error(`no schema file for protobuf package ${protoPackage}`);
  return targetOfOpenApiPrefix(`io.k8s.api.${m[1]}.${m[2]}`);
}
