// PodSecurity driven by kubectl, each answer compared with what kube-apiserver v1.36.2 (with kube's default
// admission plugins, no configuration) printed for the same commands and manifests
// (test/data/admission/pod-security/; the reference's namespace renamed to "ps").
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../../e2e/kubectl-session.js";

const data = join(import.meta.dirname, "../../../data/admission/pod-security");

const restrictedLatestPod = (name: string) =>
  `violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "${name}" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "${name}" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "${name}" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "${name}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

describe.skipIf(!haveKubectl)("PodSecurity through kubectl", () => {
  let session: KubectlSession;

  beforeAll(async () => {
    session = await startKubectlSession();
    await session.kubectl("create", "namespace", "ps");
    await session.kubectl("apply", "-f", join(data, "existing-pods.yaml"));
  });

  afterAll(async () => {
    await session?.close();
  });

  it("warns about the existing pods a tighter enforce level refuses, dry run too", async () => {
    const dryRun = await session.kubectlWith(
      {},
      "label",
      "ns",
      "ps",
      "pod-security.kubernetes.io/enforce=baseline",
      "--dry-run=server",
    );
    expect(dryRun.stdout).toBe("namespace/ps labeled (server dry run)\n");
    expect(dryRun.stderr).toBe(
      'Warning: existing pods in namespace "ps" violate the new PodSecurity enforce level "baseline:latest"\n' +
        "Warning: host: non-default capabilities, host namespaces, hostPath volumes, hostPort, seccompProfile\n",
    );
    const restricted = await session.kubectlWith(
      {},
      "label",
      "ns",
      "ps",
      "pod-security.kubernetes.io/enforce=restricted",
    );
    expect(restricted.stdout).toBe("namespace/ps labeled\n");
    expect(restricted.stderr).toBe(
      'Warning: existing pods in namespace "ps" violate the new PodSecurity enforce level "restricted:latest"\n' +
        "Warning: host: host namespaces, hostPort, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, seccompProfile\n" +
        "Warning: web-a (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile\n",
    );
    const same = await session.kubectlWith(
      {},
      "label",
      "ns",
      "ps",
      "pod-security.kubernetes.io/enforce=restricted",
      "--overwrite",
    );
    expect(same).toEqual({ stdout: "namespace/ps not labeled\n", stderr: "" });
    const older = await session.kubectlWith(
      {},
      "label",
      "ns",
      "ps",
      "pod-security.kubernetes.io/enforce-version=v1.20",
      "--overwrite",
    );
    expect(older.stdout).toBe("namespace/ps labeled\n");
    expect(older.stderr).toBe(
      'Warning: existing pods in namespace "ps" violate the new PodSecurity enforce level "restricted:v1.20"\n' +
        "Warning: host: non-default capabilities, host namespaces, hostPort, allowPrivilegeEscalation != false, restricted volume types, runAsNonRoot != true, seccompProfile\n" +
        "Warning: web-a (and 1 other pod): allowPrivilegeEscalation != false, runAsNonRoot != true, seccompProfile\n",
    );
  });

  it("refuses invalid labels", async () => {
    expect(
      await session.kubectlError("label", "ns", "ps", "pod-security.kubernetes.io/enforce=bogus", "--overwrite"),
    ).toBe(
      'The Namespace "ps" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted\n',
    );
    expect(
      await session.kubectlError("label", "ns", "ps", "pod-security.kubernetes.io/enforce-version=v2", "--overwrite"),
    ).toBe(
      'The Namespace "ps" is invalid: metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v2": must be "latest" or "v1.x"\n',
    );
  });

  it("refuses pods the enforce level forbids and warns about workloads", async () => {
    await session.kubectl("label", "ns", "ps", "pod-security.kubernetes.io/enforce-version-", "--overwrite");
    expect(await session.kubectlError("run", "p3", "-n", "ps", "--image=busybox")).toBe(
      `Error from server (Forbidden): pods "p3" is forbidden: ${restrictedLatestPod("p3")}\n`,
    );
    const deployment = await session.kubectlWith({}, "create", "deployment", "dep1", "-n", "ps", "--image=busybox");
    expect(deployment.stdout).toBe("deployment.apps/dep1 created\n");
    expect(deployment.stderr).toBe(
      `Warning: would ${restrictedLatestPod("busybox").replace(/^violates/, "violate")}\n`,
    );
  });

  it("words each baseline check and warns at a warn level stricter than enforce", async () => {
    await session.kubectl(
      "label",
      "ns",
      "ps",
      "pod-security.kubernetes.io/enforce=baseline",
      "pod-security.kubernetes.io/warn=restricted",
      "--overwrite",
    );
    expect(await session.kubectlError("apply", "-f", join(data, "baseline-violations.yaml"))).toBe(
      `Error from server (Forbidden): error when creating "${join(data, "baseline-violations.yaml")}": pods "bad" is forbidden: violates PodSecurity "baseline:latest": forbidden AppArmor profile (pod must not set AppArmor profile type to "Unconfined"), host namespaces (hostNetwork=true, hostPID=true), probe or lifecycle host (container "app" uses probe or lifecycle host "example.com"), seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set), seccompProfile (container "app" must not set securityContext.seccompProfile.type to "Unconfined"), forbidden sysctls (kernel.msgmax)\n`,
    );
    const warned = await session.kubectlWith({}, "apply", "-f", join(data, "restricted-warning-deployment.yaml"));
    expect(warned.stdout).toBe("deployment.apps/dep2 created\n");
    expect(warned.stderr).toBe(
      'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must not include "CHOWN" in securityContext.capabilities.add), restricted volume types (volumes "nf", "h" use restricted volume types "hostPath", "nfs"), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), runAsUser=0 (container "app" must not set runAsUser=0), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")\n',
    );
  });
});
