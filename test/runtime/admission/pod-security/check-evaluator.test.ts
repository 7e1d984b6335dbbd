// Each Pod Security check on pods of our own, with kube's reasons and details (kube's policy/check_*.go),
// at the versions each check applies from.
import { describe, expect, it } from "vitest";
import {
  CheckEvaluator,
  forbiddenDetail,
  forbiddenReason,
} from "../../../../runtime/admission/pod-security/check-evaluator.js";
import {
  type Level,
  type LevelVersion,
  latest,
  minorVersion,
} from "../../../../runtime/admission/pod-security/policy-levels.js";

const evaluator = new CheckEvaluator();

type Spec = Record<string, unknown>;

function at(level: Level, minor?: number): LevelVersion {
  return { level, version: minor === undefined ? latest : minorVersion(minor) };
}

/** A pod passing the restricted level, with its container's securityContext extended by `container`. */
function restrictedPod(spec: Spec = {}, container: Spec = {}): Spec {
  return {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
    containers: [
      {
        name: "c",
        image: "i",
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] }, ...container },
      },
    ],
    ...spec,
  };
}

function detail(lv: LevelVersion, spec: Spec, metadata: Spec = {}): string {
  return forbiddenDetail(evaluator.evaluate(lv, metadata, spec));
}

describe("baseline checks", () => {
  const cases: [string, Spec, string][] = [
    ["nothing forbidden", restrictedPod(), ""],
    [
      "privileged containers, init and ephemeral ones included",
      {
        initContainers: [{ name: "i", securityContext: { privileged: true } }],
        containers: [
          { name: "a", securityContext: { privileged: false } },
          { name: "b", securityContext: { privileged: true } },
        ],
        ephemeralContainers: [{ name: "e", securityContext: { privileged: true } }],
      },
      'privileged (containers "i", "b", "e" must not set securityContext.privileged=true)',
    ],
    [
      "capabilities beyond the default set",
      {
        containers: [
          { name: "a", securityContext: { capabilities: { add: ["SYS_TIME", "CHOWN", "NET_ADMIN"] } } },
          { name: "b", securityContext: { capabilities: { add: ["KILL"] } } },
        ],
      },
      'non-default capabilities (container "a" must not include "NET_ADMIN", "SYS_TIME" in securityContext.capabilities.add)',
    ],
    [
      "host namespaces",
      { hostIPC: true, hostNetwork: true, hostPID: false, containers: [{ name: "a" }] },
      "host namespaces (hostNetwork=true, hostIPC=true)",
    ],
    [
      "hostPath volumes and host ports (sorted as text)",
      {
        volumes: [
          { name: "x", hostPath: { path: "/" } },
          { name: "y", emptyDir: {} },
          { name: "z", hostPath: { path: "/a" } },
        ],
        containers: [
          {
            name: "a",
            ports: [
              { containerPort: 1, hostPort: 8080 },
              { containerPort: 2, hostPort: 10000 },
            ],
          },
          { name: "b", ports: [{ containerPort: 3 }] },
        ],
      },
      'hostPath volumes (volumes "x", "z"), hostPort (container "a" uses hostPorts 10000, 8080)',
    ],
    [
      "probe and lifecycle hosts",
      {
        containers: [
          { name: "b", readinessProbe: { tcpSocket: { host: "h2", port: 1 } } },
          { name: "a", lifecycle: { preStop: { httpGet: { host: "h1", port: 1 } } } },
        ],
      },
      'probe or lifecycle host (containers "a", "b" use probe or lifecycle hosts "h1", "h2")',
    ],
    [
      "procMount",
      {
        containers: [
          { name: "a", securityContext: { procMount: "Unmasked" } },
          { name: "b", securityContext: { procMount: "Default" } },
        ],
      },
      'procMount (container "a" must not set securityContext.procMount to "Unmasked")',
    ],
    [
      "seLinuxOptions of the pod and containers",
      {
        securityContext: { seLinuxOptions: { role: "r" } },
        containers: [
          { name: "a", securityContext: { seLinuxOptions: { type: "spc_t", user: "u" } } },
          { name: "b", securityContext: { seLinuxOptions: { type: "container_engine_t" } } },
        ],
      },
      'seLinuxOptions (pod and container "a" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set; role may not be set)',
    ],
    [
      "seccomp profiles",
      {
        securityContext: { seccompProfile: { type: "Unconfined" } },
        containers: [{ name: "a", securityContext: { seccompProfile: { type: "Localhost" } } }],
      },
      'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
    ],
    [
      "unsafe sysctls, in the pod's order",
      {
        securityContext: { sysctls: [{ name: "net.ipv4.tcp_rmem" }, { name: "kernel.msgmax" }, { name: "a.b" }] },
        containers: [{ name: "a" }],
      },
      "forbidden sysctls (kernel.msgmax, a.b)",
    ],
    [
      "Windows host process",
      {
        securityContext: { windowsOptions: { hostProcess: true } },
        containers: [{ name: "a", securityContext: { windowsOptions: { hostProcess: true } } }],
      },
      'hostProcess (pod and container "a" must not set securityContext.windowsOptions.hostProcess=true)',
    ],
    [
      "AppArmor profile types",
      {
        securityContext: { appArmorProfile: { type: "Unconfined" } },
        containers: [{ name: "a", securityContext: { appArmorProfile: { type: "Localhost" } } }],
      },
      'forbidden AppArmor profile (pod must not set AppArmor profile type to "Unconfined")',
    ],
  ];
  it.each(cases)("%s", (_, spec, expected) => {
    expect(detail(at("baseline"), spec)).toBe(expected);
  });

  it("AppArmor annotations join the profile types", () => {
    const spec = { containers: [{ name: "a", securityContext: { appArmorProfile: { type: "Unconfined" } } }] };
    const metadata = {
      annotations: {
        "container.apparmor.security.beta.kubernetes.io/b": "unconfined",
        "container.apparmor.security.beta.kubernetes.io/a": "localhost/x",
      },
    };
    expect(detail(at("baseline"), spec, metadata)).toBe(
      'forbidden AppArmor profiles (container "a" and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/b="unconfined"")',
    );
  });

  it("applies each version's rules", () => {
    const sysctl = {
      securityContext: { sysctls: [{ name: "net.ipv4.tcp_wmem" }, { name: "net.ipv4.tcp_fin_timeout" }] },
    };
    expect(detail(at("baseline", 28), sysctl)).toBe("forbidden sysctls (net.ipv4.tcp_wmem, net.ipv4.tcp_fin_timeout)");
    expect(detail(at("baseline", 31), sysctl)).toBe("forbidden sysctls (net.ipv4.tcp_wmem)");
    expect(detail(at("baseline", 32), sysctl)).toBe("");
    const engine = { containers: [{ name: "a", securityContext: { seLinuxOptions: { type: "container_engine_t" } } }] };
    expect(detail(at("baseline", 30), engine)).toBe(
      'seLinuxOptions (container "a" set forbidden securityContext.seLinuxOptions: type "container_engine_t")',
    );
    expect(detail(at("baseline", 31), engine)).toBe("");
    const probe = { containers: [{ name: "a", livenessProbe: { httpGet: { host: "h" } } }] };
    expect(detail(at("baseline", 33), probe)).toBe("");
    const seccomp = {
      containers: [{ name: "a" }],
    };
    const annotations = {
      annotations: {
        "seccomp.security.alpha.kubernetes.io/pod": "unconfined",
        "container.seccomp.security.alpha.kubernetes.io/a": "docker/default",
      },
    };
    expect(detail(at("baseline", 18), seccomp, annotations)).toBe(
      'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")',
    );
    expect(detail(at("baseline", 19), seccomp, annotations)).toBe("");
    const userNamespace = { hostUsers: false, containers: [{ name: "a", securityContext: { procMount: "Unmasked" } }] };
    expect(detail(at("baseline", 34), userNamespace)).toBe(
      'procMount (container "a" must not set securityContext.procMount to "Unmasked")',
    );
    expect(detail(at("baseline", 35), userNamespace)).toBe("");
  });

  it("evaluates versions past the newest check's, and latest, as the newest", () => {
    const spec = { containers: [{ name: "a", livenessProbe: { tcpSocket: { host: "h" } } }] };
    const expected = 'probe or lifecycle host (container "a" uses probe or lifecycle host "h")';
    expect(detail(at("baseline", 36), spec)).toBe(expected);
    expect(detail(at("baseline", 99), spec)).toBe(expected);
    expect(detail(at("baseline"), spec)).toBe(expected);
  });

  it("privileged evaluates nothing", () => {
    expect(evaluator.evaluate(at("privileged"), {}, { hostPID: true, containers: [] }).allowed).toBe(true);
  });
});

describe("restricted checks", () => {
  const cases: [string, Spec, string][] = [
    [
      "a pod setting nothing",
      { containers: [{ name: "a" }], initContainers: [{ name: "i" }] },
      'allowPrivilegeEscalation != false (containers "i", "a" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (containers "i", "a" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or containers "i", "a" must set securityContext.runAsNonRoot=true), seccompProfile (pod or containers "i", "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ],
    [
      "added capabilities other than NET_BIND_SERVICE",
      restrictedPod({}, { capabilities: { drop: ["ALL"], add: ["NET_BIND_SERVICE", "SYS_TIME", "CHOWN"] } }),
      'unrestricted capabilities (container "c" must not include "CHOWN", "SYS_TIME" in securityContext.capabilities.add)',
    ],
    [
      "capabilities without drop ALL that add too",
      restrictedPod({}, { capabilities: { drop: ["NET_RAW"], add: ["NET_ADMIN"] } }),
      'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "NET_ADMIN" in securityContext.capabilities.add)',
    ],
    [
      "runAsNonRoot false on the pod and a container",
      restrictedPod(
        { securityContext: { runAsNonRoot: false, seccompProfile: { type: "Localhost" } } },
        { runAsNonRoot: false },
      ),
      'runAsNonRoot != true (pod and container "c" must not set securityContext.runAsNonRoot=false)',
    ],
    [
      "runAsUser 0",
      restrictedPod(
        { securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: "RuntimeDefault" } } },
        { runAsUser: 0 },
      ),
      'runAsUser=0 (pod and container "c" must not set runAsUser=0)',
    ],
    [
      "restricted volume types replace the hostPath check",
      restrictedPod({
        volumes: [
          { name: "h", hostPath: { path: "/" } },
          { name: "ok", projected: {} },
          { name: "n", nfs: { server: "s", path: "/" } },
          { name: "w", somethingNew: {} },
        ],
      }),
      'restricted volume types (volumes "h", "n", "w" use restricted volume types "hostPath", "nfs", "unknown")',
    ],
    [
      "an explicit bad seccomp profile wins over missing ones",
      {
        securityContext: { runAsNonRoot: true },
        containers: [
          {
            name: "a",
            securityContext: {
              allowPrivilegeEscalation: false,
              capabilities: { drop: ["ALL"] },
              seccompProfile: { type: "Unconfined" },
            },
          },
          { name: "b", securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } } },
        ],
      },
      'seccompProfile (container "a" must not set securityContext.seccompProfile.type to "Unconfined")',
    ],
    [
      "restricted procMount (no user namespace exception)",
      restrictedPod({ hostUsers: false }, { procMount: "Unmasked" }),
      'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
    ],
    [
      "baseline failures come first",
      restrictedPod({ hostNetwork: true }, { privileged: true, runAsUser: 0 }),
      'host namespaces (hostNetwork=true), privileged (container "c" must not set securityContext.privileged=true), runAsUser=0 (container "c" must not set runAsUser=0)',
    ],
  ];
  it.each(cases)("%s", (_, spec, expected) => {
    expect(detail(at("restricted"), spec)).toBe(expected);
  });

  it("Windows pods and user namespaces relax from the versions kube says", () => {
    const windows = { os: { name: "windows" }, containers: [{ name: "a", securityContext: { runAsNonRoot: true } }] };
    expect(detail(at("restricted", 24), windows)).toBe(
      'allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "a" must set securityContext.capabilities.drop=["ALL"]), seccompProfile (pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    expect(detail(at("restricted", 25), windows)).toBe("");
    const root = restrictedPod({
      hostUsers: false,
      securityContext: { runAsUser: 0, seccompProfile: { type: "RuntimeDefault" } },
    });
    expect(detail(at("restricted", 34), root)).toBe(
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), runAsUser=0 (pod must not set runAsUser=0)',
    );
    expect(detail(at("restricted", 35), root)).toBe("");
  });

  it("older versions check less, and overridden baseline checks return", () => {
    const spec = {
      containers: [{ name: "a", securityContext: { runAsUser: 0, capabilities: { add: ["NET_ADMIN"] } } }],
    };
    expect(forbiddenReason(evaluator.evaluate(at("restricted", 0), {}, spec))).toBe(
      "non-default capabilities, runAsNonRoot != true",
    );
    expect(forbiddenReason(evaluator.evaluate(at("restricted", 8), {}, spec))).toBe(
      "non-default capabilities, allowPrivilegeEscalation != false, runAsNonRoot != true",
    );
    expect(forbiddenReason(evaluator.evaluate(at("restricted", 22), {}, spec))).toBe(
      "allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
    );
    expect(forbiddenReason(evaluator.evaluate(at("restricted", 23), {}, spec))).toBe(
      "allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, runAsUser=0, seccompProfile",
    );
  });
});
