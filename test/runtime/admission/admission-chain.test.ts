import { afterEach, describe, expect, it } from "vitest";
import { kinds } from "../../../generated/registry.js";
import type { Authorizer } from "../../../runtime/access/authorizer.js";
import type { AdmissionPlugin } from "../../../runtime/admission/admission.js";
import { admissionChain, admissionPluginNames } from "../../../runtime/admission/admission-chain.js";
import { RbacIndex } from "../../../runtime/authz/rbac/rbac-index.js";
import { kindReference } from "../../../runtime/registry/kinds.js";
import { byGroupVersionKind } from "../../../runtime/registry/lookup.js";
import type { ResourceKindRecord, ServedKind } from "../../../runtime/registry/served-kind.js";
import { ResourceApi } from "../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../builtin-kinds.js";

const authorizer: Authorizer = {
  authorize: () => ({ decision: "noOpinion", reason: "" }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};

let resources: ResourceApi | undefined;
afterEach(() => resources?.close());

describe("admission chain", () => {
  it("names the plugins in the order they run", () => {
    expect(admissionPluginNames).toEqual([
      "NamespaceLifecycle",
      "RBACEscalationPrevention",
      "ValidatingAdmissionPolicy",
    ]);
  });

  it("builds them in that order, RBAC's escalation checks only when RBAC authorizes", () => {
    resources = new ResourceApi({ kinds: builtinKinds(), store: new MemoryStore() });
    const api = resources;
    const names = (rbac: RbacIndex | undefined) =>
      admissionChain({ resources: api, authorizer: () => authorizer, ...(rbac === undefined ? {} : { rbac }) }).map(
        (plugin) => plugin.name,
      );
    expect(names(new RbacIndex(api))).toEqual(admissionPluginNames);
    expect(names(undefined)).toEqual(["NamespaceLifecycle", "ValidatingAdmissionPolicy"]);
  });

  it("has NamespaceLifecycle's mutating step and every plugin's validating step", () => {
    resources = new ResourceApi({ kinds: builtinKinds(), store: new MemoryStore() });
    const chain = admissionChain({ resources, authorizer: () => authorizer, rbac: new RbacIndex(resources) });
    expect(chain.map((plugin) => [plugin.name, plugin.mutate !== undefined, plugin.validate !== undefined])).toEqual([
      ["NamespaceLifecycle", true, true],
      ["RBACEscalationPrevention", false, true],
      ["ValidatingAdmissionPolicy", false, true],
    ]);
  });

  it("runs every mutating step, in order, before the validating steps, as kube runs its chain", async () => {
    const trace: string[] = [];
    const plugin = (name: string): AdmissionPlugin => ({
      name,
      mutate: () => void trace.push(`mutate ${name}`),
      validate: () => void trace.push(`validate ${name}`),
    });
    resources = new ResourceApi({
      kinds: builtinKinds(),
      store: new MemoryStore(),
      admission: [plugin("a"), plugin("b")],
    });
    const configMaps = kindReference(byGroupVersionKind(kinds, "", "v1", "ConfigMap") as ResourceKindRecord);
    await resources.create({ kind: configMaps, namespace: "default" }, { metadata: { name: "c" } });
    expect(trace).toEqual(["mutate a", "mutate b", "validate a", "validate b"]);
  });
});
