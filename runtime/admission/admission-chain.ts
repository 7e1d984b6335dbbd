// The server's admission chain: one ordered list of named plugins, in kube-apiserver's plugin order for
// the plugins kapi has. The write path runs every plugin's mutating step, in this order, before any
// validating step, then the validating steps in the same order, as kube runs its chain.
import type { Authorizer } from "../access/authorizer.js";
import { celAuthorizer } from "../authz/cel-authorizer.js";
import { RbacEscalationAdmission } from "../authz/rbac/escalation-admission.js";
import type { RbacIndex } from "../authz/rbac/rbac-index.js";
import type { ResourceApi } from "../resources/resource-api.js";
import type { AdmissionPlugin } from "./admission.js";
import { namespaceLifecycle } from "./namespace-lifecycle.js";
import { admissionPolicyEnvironment } from "./policy/policy-environment.js";
import { validatingAdmissionPolicy } from "./policy/policy-plugin.js";

/** What the plugins are built from: the server's API and its access control. */
export interface AdmissionChainOptions {
  resources: ResourceApi;
  /** The server's authorizer chain, read when a plugin asks (it may be built after the chain). */
  authorizer: () => Authorizer;
  /** RBAC's index when RBAC authorizes; its escalation checks come with it. */
  rbac?: RbacIndex;
}

interface ChainEntry {
  name: string;
  /** The plugin, or undefined when the server's options leave it out. */
  build(options: AdmissionChainOptions): AdmissionPlugin | undefined;
}

const chain: readonly ChainEntry[] = [
  { name: "NamespaceLifecycle", build: (o) => namespaceLifecycle(o.resources) },
  {
    // kube checks escalation in its RBAC storage, before admission's validation; kapi runs it as a plugin.
    name: "RBACEscalationPrevention",
    build: (o) => (o.rbac === undefined ? undefined : new RbacEscalationAdmission(o.rbac, o.authorizer)),
  },
  {
    name: "ValidatingAdmissionPolicy",
    // A server whose runtime config switches admissionregistration.k8s.io/v1 off has no policies to apply.
    build: (o) =>
      o.resources.kinds.servesBuiltin("admissionregistration.k8s.io", "v1")
        ? validatingAdmissionPolicy(o.resources, {
            environment: admissionPolicyEnvironment,
            authorizer: celAuthorizer(o.authorizer),
          })
        : undefined,
  },
];

/** The plugins' names in the order they run. */
export const admissionPluginNames: readonly string[] = chain.map((entry) => entry.name);

/** The plugins the server's options call for, in order. */
export function admissionChain(options: AdmissionChainOptions): AdmissionPlugin[] {
  return chain.flatMap((entry) => entry.build(options) ?? []);
}
