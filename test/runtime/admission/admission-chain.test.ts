import { afterEach, describe, expect, it } from "vitest";
import { kinds } from "../../../generated/registry.js";
import type { Authorizer } from "../../../runtime/access/authorizer.js";
import type { AdmissionPlugin } from "../../../runtime/admission/admission.js";
import {
  admissionChain,
  admissionPluginNames,
  defaultAdmissionPluginNames,
  enabledAdmissionPlugins,
} from "../../../runtime/admission/admission-chain.js";
import { AdmissionMetrics } from "../../../runtime/admission/admission-metrics.js";
import { RbacIndex } from "../../../runtime/authz/rbac/rbac-index.js";
import { kindReference } from "../../../runtime/registry/kinds.js";
import { byGroupVersionKind } from "../../../runtime/registry/lookup.js";
import type { ResourceKindRecord } from "../../../runtime/registry/served-kind.js";
import { ResourceApi } from "../../../runtime/resources/resource-api.js";
import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { builtinKinds } from "../builtin-kinds.js";

/** kube-apiserver v1.36's AllOrderedPlugins (pkg/kubeapiserver/options/plugins.go): the order plugins run in. */
const kubeOrder = [
  "AlwaysAdmit",
  "NamespaceAutoProvision",
  "NamespaceLifecycle",
  "NamespaceExists",
  "LimitPodHardAntiAffinityTopology",
  "LimitRanger",
  "ServiceAccount",
  "NodeRestriction",
  "TaintNodesByCondition",
  "AlwaysPullImages",
  "ImagePolicyWebhook",
  "PodSecurity",
  "PodNodeSelector",
  "Priority",
  "DefaultTolerationSeconds",
  "PodTolerationRestriction",
  "EventRateLimit",
  "ExtendedResourceToleration",
  "DefaultStorageClass",
  "StorageObjectInUseProtection",
  "PodGroupProtection",
  "OwnerReferencesPermissionEnforcement",
  "PersistentVolumeClaimResize",
  "RuntimeClass",
  "CertificateApproval",
  "CertificateSigning",
  "ClusterTrustBundleAttest",
  "CertificateSubjectRestriction",
  "DefaultIngressClass",
  "DenyServiceExternalIPs",
  "PodTopologyLabels",
  "PodGroupWorkloadExists",
  "NodeDeclaredFeatureValidator",
  "JobValidation",
  "PodResizeValidator",
  "MutatingAdmissionPolicy",
  "MutatingAdmissionWebhook",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionWebhook",
  "ResourceQuota",
  "AlwaysDeny",
];

/** kube-apiserver v1.36's default-on plugins (DefaultOffAdmissionPlugins' complement). */
const kubeDefaultOn = new Set([
  "NamespaceLifecycle",
  "LimitRanger",
  "ServiceAccount",
  "DefaultStorageClass",
  "PersistentVolumeClaimResize",
  "DefaultTolerationSeconds",
  "MutatingAdmissionWebhook",
  "ValidatingAdmissionWebhook",
  "ResourceQuota",
  "StorageObjectInUseProtection",
  "PodGroupProtection",
  "Priority",
  "TaintNodesByCondition",
  "RuntimeClass",
  "CertificateApproval",
  "CertificateSigning",
  "ClusterTrustBundleAttest",
  "CertificateSubjectRestriction",
  "DefaultIngressClass",
  "PodSecurity",
  "PodTopologyLabels",
  "MutatingAdmissionPolicy",
  "ValidatingAdmissionPolicy",
  "PodGroupWorkloadExists",
  "NodeDeclaredFeatureValidator",
  "JobValidation",
  "PodResizeValidator",
]);

const authorizer: Authorizer = {
  authorize: () => ({ decision: "noOpinion", reason: "" }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};

const configMaps = kindReference(byGroupVersionKind(kinds, "", "v1", "ConfigMap") as ResourceKindRecord);

let resources: ResourceApi | undefined;
afterEach(() => resources?.close());

function context(api: ResourceApi, rbac?: RbacIndex) {
  return {
    resources: api,
    authorizer: () => authorizer,
    metrics: new AdmissionMetrics(),
    log: () => {},
    ...(rbac ? { rbac } : {}),
  };
}

describe("admission chain", () => {
  it("has kube's plugin names in kube's order", () => {
    expect(admissionPluginNames).toEqual(kubeOrder.filter((name) => admissionPluginNames.includes(name)));
    expect(admissionPluginNames.every((name) => kubeOrder.includes(name))).toBe(true);
  });

  it("turns on kube v1.36's default set, as far as kapi has its plugins", () => {
    expect(defaultAdmissionPluginNames).toEqual(admissionPluginNames.filter((name) => kubeDefaultOn.has(name)));
    expect(enabledAdmissionPlugins()).toEqual(defaultAdmissionPluginNames);
  });

  it("enables and disables plugins by name, keeping kube's order whatever the flags' order", () => {
    expect(enabledAdmissionPlugins({ enablePlugins: ["AlwaysDeny", "NamespaceExists"] })).toEqual([
      ...defaultAdmissionPluginNames.filter((n) => kubeOrder.indexOf(n) < kubeOrder.indexOf("NamespaceExists")),
      "NamespaceExists",
      ...defaultAdmissionPluginNames.filter((n) => kubeOrder.indexOf(n) > kubeOrder.indexOf("NamespaceExists")),
      "AlwaysDeny",
    ]);
    expect(enabledAdmissionPlugins({ disablePlugins: ["NamespaceLifecycle"] })).not.toContain("NamespaceLifecycle");
    expect(enabledAdmissionPlugins({ admissionControl: ["AlwaysDeny", "NamespaceLifecycle"] })).toEqual([
      "NamespaceLifecycle",
      "AlwaysDeny",
    ]);
  });

  it("refuses unknown names and contradictions with kube-apiserver's startup errors", () => {
    expect(() => enabledAdmissionPlugins({ enablePlugins: ["Bogus"] })).toThrow(
      'enable-admission-plugins plugin "Bogus" is unknown',
    );
    expect(() => enabledAdmissionPlugins({ enablePlugins: ["Bogus"], disablePlugins: ["Nope"] })).toThrow(
      '[enable-admission-plugins plugin "Bogus" is unknown, disable-admission-plugins plugin "Nope" is unknown]',
    );
    expect(() => enabledAdmissionPlugins({ enablePlugins: ["AlwaysDeny"], disablePlugins: ["AlwaysDeny"] })).toThrow(
      "[AlwaysDeny] in enable-admission-plugins and disable-admission-plugins overlapped",
    );
    expect(() => enabledAdmissionPlugins({ admissionControl: ["AlwaysDeny"], enablePlugins: [] })).toThrow(
      "admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive",
    );
    expect(() => enabledAdmissionPlugins({ admissionControl: ["Nope"] })).toThrow(
      'admission-control plugin "Nope" is unknown',
    );
  });

  it("builds the enabled plugins in order, RBAC's escalation checks first when RBAC authorizes", () => {
    resources = new ResourceApi({ kinds: builtinKinds(), store: new MemoryStore() });
    const api = resources;
    const names = (rbac: RbacIndex | undefined) => admissionChain(context(api, rbac)).map((plugin) => plugin.name);
    expect(names(new RbacIndex(api))).toEqual(["RBACEscalationPrevention", ...defaultAdmissionPluginNames]);
    expect(names(undefined)).toEqual(defaultAdmissionPluginNames);
    expect(admissionChain(context(api), ["NamespaceExists", "AlwaysDeny"]).map((p) => p.name)).toEqual([
      "NamespaceExists",
      "AlwaysDeny",
    ]);
  });

  it("times every plugin step into the controller admission metric", async () => {
    resources = new ResourceApi({ kinds: builtinKinds(), store: new MemoryStore() });
    const ctx = context(resources);
    const namespaces = kindReference(byGroupVersionKind(kinds, "", "v1", "Namespace") as ResourceKindRecord);
    await resources.create({ kind: namespaces }, { metadata: { name: "default" } });
    for (const plugin of admissionChain(ctx, ["NamespaceLifecycle", "AlwaysDeny"])) resources.addAdmission(plugin);
    await expect(
      resources.create({ kind: configMaps, namespace: "default" }, { metadata: { name: "c" } }),
    ).rejects.toThrow('configmaps "c" is forbidden: admission control is denying all modifications');
    const samples = (await ctx.metrics.samples()).map((s) => [
      s.labels.name,
      s.labels.type,
      s.labels.rejected,
      s.count,
    ]);
    expect(samples).toEqual([
      ["NamespaceLifecycle", "admit", "false", 1],
      ["AlwaysDeny", "admit", "true", 1],
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
    await resources.create({ kind: configMaps, namespace: "default" }, { metadata: { name: "c" } });
    expect(trace).toEqual(["mutate a", "mutate b", "validate a", "validate b"]);
  });

  it("reinvokes the whole mutating chain once when a plugin asks, as kube's reinvoker does", async () => {
    const trace: string[] = [];
    const asking: AdmissionPlugin = {
      name: "asking",
      mutate(a) {
        trace.push(`asking reinvoke=${a.reinvocation?.isReinvoke}`);
        if (a.reinvocation !== undefined) a.reinvocation.requested = true;
      },
    };
    const other: AdmissionPlugin = {
      name: "other",
      mutate: (a) => void trace.push(`other reinvoke=${a.reinvocation?.isReinvoke}`),
      validate: () => void trace.push("validate"),
    };
    resources = new ResourceApi({ kinds: builtinKinds(), store: new MemoryStore(), admission: [asking, other] });
    await resources.create({ kind: configMaps, namespace: "default" }, { metadata: { name: "c" } });
    expect(trace).toEqual([
      "asking reinvoke=false",
      "other reinvoke=false",
      "asking reinvoke=true",
      "other reinvoke=true",
      "validate",
    ]);
  });

  it("keeps the object a mutating plugin puts in its place", async () => {
    const replacing: AdmissionPlugin = {
      name: "replacing",
      mutate(a) {
        a.object = { ...a.object, data: { added: "yes" } };
      },
    };
    resources = new ResourceApi({ kinds: builtinKinds(), store: new MemoryStore(), admission: [replacing] });
    const created = await resources.create({ kind: configMaps, namespace: "default" }, { metadata: { name: "c" } });
    expect(created.data).toEqual({ added: "yes" });
  });
});
