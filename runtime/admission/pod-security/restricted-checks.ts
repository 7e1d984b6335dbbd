// The restricted level's checks (kube's policy/check_*.go of level restricted): they apply on top of the
// baseline checks, some replacing a baseline check from the version they apply from.
import { procMount, validSeccompType } from "./baseline-checks.js";
import {
  allowed,
  asObject,
  type Check,
  type CheckPod,
  type CheckResult,
  containerName,
  containers,
  containersPhrase,
  forbidden,
  inUserNamespace,
  isWindowsPod,
  type JsonObject,
  joinQuote,
  objects,
  pluralize,
  securityContext,
  sortedSet,
  text,
} from "./pod-checks.js";

/** From v1.25 Windows pods pass the checks of Linux-only fields. */
function exceptWindows(check: CheckPod): CheckPod {
  return (podMetadata, podSpec) => (isWindowsPod(podSpec) ? allowed : check(podMetadata, podSpec));
}

/** From v1.35 pods in a user namespace pass the checks of root and /proc. */
function exceptUserNamespace(check: CheckPod): CheckPod {
  return (podMetadata, podSpec) => (inUserNamespace(podSpec) ? allowed : check(podMetadata, podSpec));
}

function allowPrivilegeEscalation(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const bad = containers(podSpec)
    .filter((c) => securityContext(c)?.allowPrivilegeEscalation !== false)
    .map(containerName);
  if (bad.length === 0) return allowed;
  return forbidden(
    "allowPrivilegeEscalation != false",
    `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`,
  );
}

function capabilitiesRestricted(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCapabilities: string[] = [];
  for (const c of containers(podSpec)) {
    const capabilities = asObject(securityContext(c)?.capabilities);
    if (capabilities === undefined) {
      missingDropAll.push(containerName(c));
      continue;
    }
    const drop = Array.isArray(capabilities.drop) ? capabilities.drop : [];
    if (!drop.includes("ALL")) missingDropAll.push(containerName(c));
    const added = (Array.isArray(capabilities.add) ? capabilities.add : [])
      .map(text)
      .filter((cap) => cap !== "NET_BIND_SERVICE");
    if (added.length > 0) {
      addingForbidden.push(containerName(c));
      forbiddenCapabilities.push(...added);
    }
  }
  const details: string[] = [];
  if (missingDropAll.length > 0) {
    details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  }
  if (addingForbidden.length > 0) {
    details.push(
      `${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCapabilities))} in securityContext.capabilities.add`,
    );
  }
  return details.length === 0 ? allowed : forbidden("unrestricted capabilities", details.join("; "));
}

/** The volume sources the restricted level allows. */
const allowedVolumeSources = [
  "configMap",
  "csi",
  "downwardAPI",
  "emptyDir",
  "ephemeral",
  "image",
  "persistentVolumeClaim",
  "projected",
  "secret",
];

/** The restricted sources kube names, in the order it tests them. */
const namedVolumeSources = [
  "hostPath",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "gitRepo",
  "nfs",
  "iscsi",
  "glusterfs",
  "rbd",
  "flexVolume",
  "cinder",
  "cephfs",
  "flocker",
  "fc",
  "azureFile",
  "vsphereVolume",
  "quobyte",
  "azureDisk",
  "photonPersistentDisk",
  "portworxVolume",
  "scaleIO",
  "storageos",
];

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function restrictedVolumes(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const bad: string[] = [];
  const types: string[] = [];
  for (const volume of objects(podSpec.volumes)) {
    if (allowedVolumeSources.some((source) => isSet(volume[source]))) continue;
    bad.push(text(volume.name));
    types.push(namedVolumeSources.find((source) => isSet(volume[source])) ?? "unknown");
  }
  if (bad.length === 0) return allowed;
  const list = sortedSet(types);
  return forbidden(
    "restricted volume types",
    `${pluralize("volume", "volumes", bad.length)} ${joinQuote(bad)} ${pluralize("uses", "use", bad.length)} ${pluralize("restricted volume type", "restricted volume types", list.length)} ${joinQuote(list)}`,
  );
}

function runAsNonRoot(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const setters: string[] = [];
  const podValue = securityContext(podSpec)?.runAsNonRoot;
  if (podValue === false) setters.push("pod");
  const podRunAsNonRoot = podValue === true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(podSpec)) {
    const value = securityContext(c)?.runAsNonRoot;
    if (typeof value === "boolean") {
      if (!value) explicit.push(containerName(c));
    } else if (!podRunAsNonRoot) implicit.push(containerName(c));
  }
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  if (setters.length > 0) {
    return forbidden(
      "runAsNonRoot != true",
      `${setters.join(" and ")} must not set securityContext.runAsNonRoot=false`,
    );
  }
  if (implicit.length > 0) {
    return forbidden(
      "runAsNonRoot != true",
      `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true`,
    );
  }
  return allowed;
}

function runAsUser(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const setters: string[] = [];
  if (securityContext(podSpec)?.runAsUser === 0) setters.push("pod");
  const bad = containers(podSpec)
    .filter((c) => securityContext(c)?.runAsUser === 0)
    .map(containerName);
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return allowed;
  return forbidden("runAsUser=0", `${setters.join(" and ")} must not set runAsUser=0`);
}

function seccompProfileRestricted(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const setters: string[] = [];
  const badValues: string[] = [];
  let podSet = false;
  const podProfile = asObject(securityContext(podSpec)?.seccompProfile);
  if (podProfile !== undefined) {
    if (validSeccompType(podProfile.type)) podSet = true;
    else {
      setters.push("pod");
      badValues.push(text(podProfile.type));
    }
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(podSpec)) {
    const profile = asObject(securityContext(c)?.seccompProfile);
    if (profile !== undefined) {
      if (!validSeccompType(profile.type)) {
        explicit.push(containerName(c));
        badValues.push(text(profile.type));
      }
    } else if (!podSet) implicit.push(containerName(c));
  }
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  if (setters.length > 0) {
    return forbidden(
      "seccompProfile",
      `${setters.join(" and ")} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
    );
  }
  if (implicit.length > 0) {
    return forbidden(
      "seccompProfile",
      `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    );
  }
  return allowed;
}

export const restrictedChecks: readonly Check[] = [
  {
    id: "allowPrivilegeEscalation",
    level: "restricted",
    versions: [
      { minimumMinor: 8, checkPod: allowPrivilegeEscalation },
      { minimumMinor: 25, checkPod: exceptWindows(allowPrivilegeEscalation) },
    ],
  },
  {
    id: "capabilities_restricted",
    level: "restricted",
    versions: [
      { minimumMinor: 22, checkPod: capabilitiesRestricted, overrides: ["capabilities_baseline"] },
      { minimumMinor: 25, checkPod: exceptWindows(capabilitiesRestricted), overrides: ["capabilities_baseline"] },
    ],
  },
  {
    id: "procMount_restricted",
    level: "restricted",
    versions: [{ minimumMinor: 35, checkPod: procMount, overrides: ["procMount"] }],
  },
  {
    id: "restrictedVolumes",
    level: "restricted",
    versions: [{ minimumMinor: 0, checkPod: restrictedVolumes, overrides: ["hostPathVolumes"] }],
  },
  {
    id: "runAsNonRoot",
    level: "restricted",
    versions: [
      { minimumMinor: 0, checkPod: runAsNonRoot },
      { minimumMinor: 35, checkPod: exceptUserNamespace(runAsNonRoot) },
    ],
  },
  {
    id: "runAsUser",
    level: "restricted",
    versions: [
      { minimumMinor: 23, checkPod: runAsUser },
      { minimumMinor: 35, checkPod: exceptUserNamespace(runAsUser) },
    ],
  },
  {
    id: "seccompProfile_restricted",
    level: "restricted",
    versions: [
      { minimumMinor: 19, checkPod: seccompProfileRestricted, overrides: ["seccompProfile_baseline"] },
      { minimumMinor: 25, checkPod: exceptWindows(seccompProfileRestricted), overrides: ["seccompProfile_baseline"] },
    ],
  },
];
