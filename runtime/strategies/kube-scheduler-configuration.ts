// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1): what kube's SetDefaults_KubeSchedulerConfiguration
// and ValidateKubeSchedulerConfiguration do that a schema cannot say. Defaults: a partly written client or
// leader election block completed field by field (qps 50, burst 100; lock kube-system/kube-scheduler),
// a lone profile without a name named default-scheduler, and each profile merged with the default plugins
// and its plugin args defaulted (scheduler-profile-defaults.ts).
// Validation: leader election (component-base's rules plus the lease lock kube-scheduler requires), the
// backoffs against each other, unique profile names, a common queue sort, and the extenders' weights, managed resources and binder.
import { duplicate, type FieldError, invalid } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { GoStruct } from "../errors/go-format.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, listItems } from "../validation/walk.js";
import { block, defaultClientConnection, defaultLeaderElectionLock } from "./component-config-defaults.js";
import { validateLeaderElection } from "./leader-election-validation.js";
import { defaultSchedulerProfile } from "./scheduler-profile-defaults.js";

function defaultSchedulerConfiguration(obj: KubeObject): void {
  defaultClientConnection(block(obj, "clientConnection"), 50, 100);
  defaultLeaderElectionLock(block(obj, "leaderElection"), "kube-scheduler", "kube-system");
  // Only a lone profile is named by default; with several, validation asks for unique names.
  const profiles = listItems(obj.profiles);
  const lone = profiles.length === 1 ? asObject(profiles[0]) : undefined;
  if (lone !== undefined && lone.schedulerName === undefined) lone.schedulerName = "default-scheduler";
  for (const profile of profiles) {
    const object = asObject(profile);
    if (object !== undefined) defaultSchedulerProfile(object);
  }
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function int(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

function validateProfileNames(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, number>();
  for (const [i, profile] of listItems(obj.profiles).entries()) {
    const name = text(asObject(profile)?.schedulerName);
    // kube's bad value is the earlier profile's field path, which encodes as an empty JSON object.
    if (seen.has(name)) errs.push(duplicate(child(index("profiles", i), "schedulerName"), new GoStruct({})));
    seen.set(name, i);
  }
  return errs;
}

/** A PluginSet as kube's internal type encodes in an error: Go field names, a nil list as null. */
function pluginSetValue(set: Record<string, unknown>): GoStruct {
  const plugins = (value: unknown) => {
    const items = listItems(value);
    return items.length === 0
      ? null
      : items.map((p) => new GoStruct({ Name: text(asObject(p)?.name), Weight: int(asObject(p)?.weight) }));
  };
  return new GoStruct({ Enabled: plugins(set.enabled), Disabled: plugins(set.disabled) });
}

/** kube's validateCommonQueueSort over the defaulted profiles: one queue sort plugin, the same in every profile. */
function validateCommonQueueSort(obj: KubeObject): FieldError[] {
  const profiles = listItems(obj.profiles).map((p) => asObject(p) ?? {});
  const queueSort = (profile: Record<string, unknown>) => asObject(asObject(profile.plugins)?.queueSort) ?? {};
  const first = profiles[0];
  if (first === undefined) return [];
  const errs: FieldError[] = [];
  const length = listItems(queueSort(first).enabled).length;
  if (length > 1) {
    errs.push(invalid("profiles[0].plugins.queueSort.Enabled", length, "only one queue sort plugin can be enabled"));
  }
  const canon = JSON.stringify(pluginSetValue(queueSort(first)));
  for (const [i, profile] of profiles.entries()) {
    if (i === 0) continue;
    const current = pluginSetValue(queueSort(profile));
    if (JSON.stringify(current) !== canon) {
      errs.push(
        invalid(child(index("profiles", i), "plugins.queueSort"), current, "must be the same for all profiles"),
      );
    }
  }
  return errs;
}

function validateExtenders(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  let binders = 0;
  const managed = new Set<string>();
  for (const [i, item] of listItems(obj.extenders).entries()) {
    const extender = asObject(item) ?? {};
    const path = index("extenders", i);
    if (text(extender.prioritizeVerb) !== "" && int(extender.weight) <= 0) {
      errs.push(invalid(child(path, "weight"), int(extender.weight), "must have a positive weight applied to it"));
    }
    if (text(extender.bindVerb) !== "") binders++;
    for (const [j, resource] of listItems(extender.managedResources).entries()) {
      const name = text(asObject(resource)?.name);
      if (managed.has(name)) {
        errs.push(
          invalid(
            child(index(child(path, "managedResources"), j), "name"),
            name,
            "duplicate extender managed resource name",
          ),
        );
      }
      managed.add(name);
    }
  }
  if (binders > 1) {
    errs.push(
      invalid("extenders", `found ${binders} extenders implementing bind`, "only one extender can implement bind"),
    );
  }
  return errs;
}

function validateSchedulerConfiguration(obj: KubeObject): FieldError[] {
  const election = asObject(obj.leaderElection) ?? {};
  const errs = validateLeaderElection(election, "leaderElection");
  if (election.leaderElect === true && election.resourceLock !== "leases") {
    errs.push(
      invalid("leaderElection.resourceLock", text(election.resourceLock), 'resourceLock value must be "leases"'),
    );
  }
  errs.push(...validateProfileNames(obj), ...validateCommonQueueSort(obj));
  const initial = int(obj.podInitialBackoffSeconds);
  const max = int(obj.podMaxBackoffSeconds);
  if (max < initial) {
    errs.push(invalid("podMaxBackoffSeconds", max, "must be greater than or equal to PodInitialBackoffSeconds"));
  }
  errs.push(...validateExtenders(obj));
  return errs;
}

export const strategy: Strategy = { default: defaultSchedulerConfiguration, validate: validateSchedulerConfiguration };
