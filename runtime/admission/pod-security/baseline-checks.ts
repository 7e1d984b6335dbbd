// The baseline level's checks (kube's policy/check_*.go of level baseline), each with the versions it
// applies from and kube's forbidden reasons and details.
import { goQuote } from "../../errors/go-format.js";
import {
  allowed,
  asObject,
  type Check,
  type CheckResult,
  containerName,
  containers,
  containersPhrase,
  forbidden,
  inUserNamespace,
  type JsonObject,
  joinQuote,
  objects,
  pluralize,
  securityContext,
  sortedSet,
  text,
} from "./pod-checks.js";

const appArmorAnnotationPrefix = "container.apparmor.security.beta.kubernetes.io/";

function allowedAppArmorAnnotation(value: string): boolean {
  return value === "" || value === "runtime/default" || value.startsWith("localhost/");
}

function allowedAppArmorType(value: unknown): boolean {
  return value === "RuntimeDefault" || value === "Localhost";
}

function appArmorProfile(podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const setters: string[] = [];
  const badValues: string[] = [];
  const podProfile = asObject(securityContext(podSpec)?.appArmorProfile);
  if (podProfile !== undefined && !allowedAppArmorType(podProfile.type)) {
    setters.push("pod");
    badValues.push(text(podProfile.type));
  }
  const bad: string[] = [];
  for (const c of containers(podSpec)) {
    const profile = asObject(securityContext(c)?.appArmorProfile);
    if (profile !== undefined && !allowedAppArmorType(profile.type)) {
      bad.push(containerName(c));
      badValues.push(text(profile.type));
    }
  }
  if (bad.length > 0) setters.push(containersPhrase(bad));
  const annotations = asObject(podMetadata.annotations) ?? {};
  const forbiddenAnnotations = Object.entries(annotations)
    .filter(([k, v]) => k.startsWith(appArmorAnnotationPrefix) && !allowedAppArmorAnnotation(text(v)))
    .map(([k, v]) => `${k}=${goQuote(text(v))}`);
  const values = sortedSet(badValues);
  if (forbiddenAnnotations.length > 0) {
    values.push(...sortedSet(forbiddenAnnotations));
    setters.push(pluralize("annotation", "annotations", forbiddenAnnotations.length));
  }
  if (setters.length === 0) return allowed;
  return forbidden(
    pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", values.length),
    `${setters.join(" and ")} must not set AppArmor profile type to ${joinQuote(values)}`,
  );
}

const defaultCapabilities = new Set([
  "AUDIT_WRITE",
  "CHOWN",
  "DAC_OVERRIDE",
  "FOWNER",
  "FSETID",
  "KILL",
  "MKNOD",
  "NET_BIND_SERVICE",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYS_CHROOT",
]);

function capabilitiesBaseline(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const bad: string[] = [];
  const added: string[] = [];
  for (const c of containers(podSpec)) {
    const capabilities = asObject(securityContext(c)?.capabilities);
    if (capabilities === undefined) continue;
    const extra = (Array.isArray(capabilities.add) ? capabilities.add : [])
      .map(text)
      .filter((cap) => !defaultCapabilities.has(cap));
    if (extra.length === 0) continue;
    bad.push(containerName(c));
    added.push(...extra);
  }
  if (bad.length === 0) return allowed;
  return forbidden(
    "non-default capabilities",
    `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`,
  );
}

function hostNamespaces(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const set = (["hostNetwork", "hostPID", "hostIPC"] as const).filter((f) => podSpec[f] === true);
  if (set.length === 0) return allowed;
  return forbidden("host namespaces", set.map((f) => `${f}=true`).join(", "));
}

function hostPathVolumes(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const names = objects(podSpec.volumes)
    .filter((v) => asObject(v.hostPath) !== undefined)
    .map((v) => text(v.name));
  if (names.length === 0) return allowed;
  return forbidden("hostPath volumes", `${pluralize("volume", "volumes", names.length)} ${joinQuote(names)}`);
}

function hostPorts(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of containers(podSpec)) {
    const used = objects(c.ports)
      .map((p) => (typeof p.hostPort === "number" ? p.hostPort : 0))
      .filter((port) => port !== 0);
    if (used.length === 0) continue;
    bad.push(containerName(c));
    ports.push(...used.map(String));
  }
  if (bad.length === 0) return allowed;
  const list = sortedSet(ports);
  return forbidden(
    "hostPort",
    `${containersPhrase(bad)} ${pluralize("uses", "use", bad.length)} ${pluralize("hostPort", "hostPorts", list.length)} ${list.join(", ")}`,
  );
}

/** The hosts a probe or lifecycle handler names in httpGet.host or tcpSocket.host. */
function handlerHosts(handler: unknown): string[] {
  const h = asObject(handler);
  if (h === undefined) return [];
  return [text(asObject(h.httpGet)?.host), text(asObject(h.tcpSocket)?.host)].filter((host) => host !== "");
}

function hostProbesAndHostLifecycle(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const bad: string[] = [];
  const hosts: string[] = [];
  for (const c of containers(podSpec)) {
    const lifecycle = asObject(c.lifecycle) ?? {};
    const found = [c.livenessProbe, c.readinessProbe, c.startupProbe, lifecycle.postStart, lifecycle.preStop].flatMap(
      handlerHosts,
    );
    if (found.length === 0) continue;
    bad.push(containerName(c));
    hosts.push(...found);
  }
  if (bad.length === 0) return allowed;
  const names = sortedSet(bad);
  const list = sortedSet(hosts);
  return forbidden(
    "probe or lifecycle host",
    `${containersPhrase(names)} ${pluralize("uses", "use", names.length)} ${pluralize("probe or lifecycle host", "probe or lifecycle hosts", list.length)} ${joinQuote(list)}`,
  );
}

function privileged(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const bad = containers(podSpec)
    .filter((c) => securityContext(c)?.privileged === true)
    .map(containerName);
  if (bad.length === 0) return allowed;
  return forbidden("privileged", `${containersPhrase(bad)} must not set securityContext.privileged=true`);
}

/** procMount other than Default; shared with the restricted level's procMount check. */
export function procMount(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of containers(podSpec)) {
    const value = securityContext(c)?.procMount;
    if (value === undefined || value === null || value === "Default") continue;
    bad.push(containerName(c));
    types.push(text(value));
  }
  if (bad.length === 0) return allowed;
  return forbidden(
    "procMount",
    `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  );
}

function procMountUnlessUserNamespace(podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  return inUserNamespace(podSpec) ? allowed : procMount(podMetadata, podSpec);
}

const seLinuxTypes = ["", "container_t", "container_init_t", "container_kvm_t"];

function seLinuxOptions(allowedTypes: ReadonlySet<string>) {
  return (_podMetadata: JsonObject, podSpec: JsonObject): CheckResult => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const valid = (options: JsonObject): boolean => {
      let ok = true;
      const type = text(options.type);
      if (!allowedTypes.has(type)) {
        ok = false;
        badTypes.push(type);
      }
      if (text(options.user) !== "") {
        ok = false;
        setUser = true;
      }
      if (text(options.role) !== "") {
        ok = false;
        setRole = true;
      }
      return ok;
    };
    const setters: string[] = [];
    const podOptions = asObject(securityContext(podSpec)?.seLinuxOptions);
    if (podOptions !== undefined && !valid(podOptions)) setters.push("pod");
    const bad = containers(podSpec)
      .filter((c) => {
        const options = asObject(securityContext(c)?.seLinuxOptions);
        return options !== undefined && !valid(options);
      })
      .map(containerName);
    if (bad.length > 0) setters.push(containersPhrase(bad));
    if (setters.length === 0) return allowed;
    const data: string[] = [];
    const types = sortedSet(badTypes);
    if (types.length > 0) data.push(`${pluralize("type", "types", types.length)} ${joinQuote(types)}`);
    if (setUser) data.push("user may not be set");
    if (setRole) data.push("role may not be set");
    return forbidden(
      "seLinuxOptions",
      `${setters.join(" and ")} set forbidden securityContext.seLinuxOptions: ${data.join("; ")}`,
    );
  };
}

const seccompPodAnnotation = "seccomp.security.alpha.kubernetes.io/pod";
const seccompContainerAnnotationPrefix = "container.seccomp.security.alpha.kubernetes.io/";

function validSeccompAnnotation(value: string): boolean {
  return value === "runtime/default" || value === "docker/default" || value.startsWith("localhost/");
}

/** Before v1.19 seccomp profiles were set by annotations. */
function seccompAnnotations(podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const annotations = asObject(podMetadata.annotations) ?? {};
  const bad: string[] = [];
  const check = (key: string) => {
    const value = annotations[key];
    if (value !== undefined && !validSeccompAnnotation(text(value))) bad.push(`${key}=${goQuote(text(value))}`);
  };
  check(seccompPodAnnotation);
  for (const c of containers(podSpec)) check(seccompContainerAnnotationPrefix + containerName(c));
  if (bad.length === 0) return allowed;
  const list = sortedSet(bad);
  return forbidden(
    "seccompProfile",
    `forbidden ${pluralize("annotation", "annotations", list.length)} ${list.join(", ")}`,
  );
}

export function validSeccompType(type: unknown): boolean {
  return type === "Localhost" || type === "RuntimeDefault";
}

function seccompProfileBaseline(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const setters: string[] = [];
  const badValues: string[] = [];
  const podProfile = asObject(securityContext(podSpec)?.seccompProfile);
  if (podProfile !== undefined && !validSeccompType(podProfile.type)) {
    setters.push("pod");
    badValues.push(text(podProfile.type));
  }
  const bad: string[] = [];
  for (const c of containers(podSpec)) {
    const profile = asObject(securityContext(c)?.seccompProfile);
    if (profile !== undefined && !validSeccompType(profile.type)) {
      bad.push(containerName(c));
      badValues.push(text(profile.type));
    }
  }
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return allowed;
  return forbidden(
    "seccompProfile",
    `${setters.join(" and ")} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
  );
}

const safeSysctls1_0 = [
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_unprivileged_port_start",
];
const safeSysctls1_27 = [...safeSysctls1_0, "net.ipv4.ip_local_reserved_ports"];
const safeSysctls1_29 = [
  ...safeSysctls1_27,
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout",
  "net.ipv4.tcp_keepalive_intvl",
  "net.ipv4.tcp_keepalive_probes",
];
const safeSysctls1_32 = [...safeSysctls1_29, "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"];

function sysctls(safe: readonly string[]) {
  const allowedNames = new Set(safe);
  return (_podMetadata: JsonObject, podSpec: JsonObject): CheckResult => {
    const bad = objects(securityContext(podSpec)?.sysctls)
      .map((s) => text(s.name))
      .filter((name) => !allowedNames.has(name));
    return bad.length === 0 ? allowed : forbidden("forbidden sysctls", bad.join(", "));
  };
}

function hostProcessSet(owner: JsonObject): boolean {
  return asObject(securityContext(owner)?.windowsOptions)?.hostProcess === true;
}

function windowsHostProcess(_podMetadata: JsonObject, podSpec: JsonObject): CheckResult {
  const setters: string[] = [];
  if (hostProcessSet(podSpec)) setters.push("pod");
  const bad = containers(podSpec).filter(hostProcessSet).map(containerName);
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return allowed;
  return forbidden(
    "hostProcess",
    `${setters.join(" and ")} must not set securityContext.windowsOptions.hostProcess=true`,
  );
}

export const baselineChecks: readonly Check[] = [
  { id: "appArmorProfile", level: "baseline", versions: [{ minimumMinor: 0, checkPod: appArmorProfile }] },
  { id: "capabilities_baseline", level: "baseline", versions: [{ minimumMinor: 0, checkPod: capabilitiesBaseline }] },
  { id: "hostNamespaces", level: "baseline", versions: [{ minimumMinor: 0, checkPod: hostNamespaces }] },
  { id: "hostPathVolumes", level: "baseline", versions: [{ minimumMinor: 0, checkPod: hostPathVolumes }] },
  { id: "hostPorts", level: "baseline", versions: [{ minimumMinor: 0, checkPod: hostPorts }] },
  {
    id: "hostProbesAndHostLifecycle",
    level: "baseline",
    versions: [{ minimumMinor: 34, checkPod: hostProbesAndHostLifecycle }],
  },
  { id: "privileged", level: "baseline", versions: [{ minimumMinor: 0, checkPod: privileged }] },
  {
    id: "procMount",
    level: "baseline",
    versions: [
      { minimumMinor: 0, checkPod: procMount },
      { minimumMinor: 35, checkPod: procMountUnlessUserNamespace },
    ],
  },
  {
    id: "seLinuxOptions",
    level: "baseline",
    versions: [
      { minimumMinor: 0, checkPod: seLinuxOptions(new Set(seLinuxTypes)) },
      { minimumMinor: 31, checkPod: seLinuxOptions(new Set([...seLinuxTypes, "container_engine_t"])) },
    ],
  },
  {
    id: "seccompProfile_baseline",
    level: "baseline",
    versions: [
      { minimumMinor: 0, checkPod: seccompAnnotations },
      { minimumMinor: 19, checkPod: seccompProfileBaseline },
    ],
  },
  {
    id: "sysctls",
    level: "baseline",
    versions: [
      { minimumMinor: 0, checkPod: sysctls(safeSysctls1_0) },
      { minimumMinor: 27, checkPod: sysctls(safeSysctls1_27) },
      { minimumMinor: 29, checkPod: sysctls(safeSysctls1_29) },
      { minimumMinor: 32, checkPod: sysctls(safeSysctls1_32) },
    ],
  },
  { id: "windowsHostProcess", level: "baseline", versions: [{ minimumMinor: 0, checkPod: windowsHostProcess }] },
];
