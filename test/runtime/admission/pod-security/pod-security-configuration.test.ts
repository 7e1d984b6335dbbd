// PodSecurity with a PodSecurityConfiguration: defaults, exemptions and the audit annotations, driven by
// kubectl; the texts are what a kube-apiserver v1.36.2 of our own printed and audited with the same
// configuration (admission-config.yaml) and commands. The configuration's validation texts are kube's too.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPodSecurityConfiguration } from "../../../../runtime/admission/pod-security/pod-security-configuration.js";
import { type AuditEvent, startServer } from "../../../../runtime/index.js";
import { haveKubectl, type KubectlSession, startKubectlSession } from "../../../e2e/kubectl-session.js";

const data = join(import.meta.dirname, "../../../data/admission/pod-security");

const restrictedDetail = (name: string) =>
  `allowPrivilegeEscalation != false (container "${name}" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "${name}" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "${name}" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "${name}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

const hostPidPod = (name: string, spec: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name },
    spec: { hostPID: true, containers: [{ name: "c", image: "busybox" }], ...spec },
  });

describe.skipIf(!haveKubectl)("PodSecurity configured", () => {
  let session: KubectlSession;
  const audit: AuditEvent[] = [];

  beforeAll(async () => {
    session = await startKubectlSession({
      admission: { configFile: join(data, "admission-config.yaml") },
      audit: (e) => audit.push(e),
    });
    await session.kubectl("create", "namespace", "free");
    await session.kubectl("create", "namespace", "plain");
    await session.kubectl("create", "clusterrolebinding", "trusted", "--clusterrole=cluster-admin", "--user=trusted");
    await session.kubectl(
      "apply",
      "-f",
      session.file(
        "kata.yaml",
        "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: kata}\nhandler: kata\n",
      ),
    );
  });

  afterAll(async () => {
    await session?.close();
  });

  function annotations(resource: string, namespace: string, name: string): Record<string, string> {
    const event = audit.findLast(
      (e) =>
        e.verb === "create" &&
        e.objectRef?.resource === resource &&
        e.objectRef.namespace === namespace &&
        e.objectRef.name === name &&
        e.stage === "ResponseComplete",
    );
    return Object.fromEntries(
      Object.entries(event?.annotations ?? {}).filter(([k]) => k.startsWith("pod-security.kubernetes.io/")),
    );
  }

  it("enforces, audits and warns at the configured defaults", async () => {
    const hp = session.file("hp.json", hostPidPod("hp"));
    expect(await session.kubectlError("create", "-f", hp, "-n", "plain")).toBe(
      `Error from server (Forbidden): error when creating "${hp}": pods "hp" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)\n`,
    );
    expect(annotations("pods", "plain", "hp")).toEqual({
      "pod-security.kubernetes.io/audit-violations": `would violate PodSecurity "restricted:v1.22": host namespaces (hostPID=true), ${restrictedDetail("c")}`,
      "pod-security.kubernetes.io/enforce-policy": "baseline:latest",
    });
    const ok = await session.kubectlWith({}, "run", "ok", "-n", "plain", "--image=busybox");
    expect(ok).toEqual({
      stdout: "pod/ok created\n",
      stderr: `Warning: would violate PodSecurity "restricted:latest": ${restrictedDetail("ok")}\n`,
    });
    expect(annotations("pods", "plain", "ok")).toEqual({
      "pod-security.kubernetes.io/audit-violations": `would violate PodSecurity "restricted:v1.22": ${restrictedDetail("ok")}`,
      "pod-security.kubernetes.io/enforce-policy": "baseline:latest",
    });
    await session.kubectlWith({}, "create", "deployment", "dep", "-n", "plain", "--image=busybox");
    expect(annotations("deployments", "plain", "dep")).toEqual({
      "pod-security.kubernetes.io/audit-violations": `would violate PodSecurity "restricted:v1.22": ${restrictedDetail("busybox")}`,
    });
  });

  it("lets exempt namespaces, users and runtime classes through, saying why", async () => {
    const free = await session.kubectlWith(
      {},
      "label",
      "ns",
      "free",
      "pod-security.kubernetes.io/enforce=restricted",
      "pod-security.kubernetes.io/warn=baseline",
    );
    expect(free).toEqual({
      stdout: "namespace/free labeled\n",
      stderr:
        'Warning: namespace "free" is exempt from Pod Security, and the policy (enforce=restricted:latest, warn=baseline:latest) will be ignored\n',
    });
    expect(await session.kubectl("create", "-f", session.file("hp1.json", hostPidPod("hp")), "-n", "free")).toBe(
      "pod/hp created\n",
    );
    expect(annotations("pods", "free", "hp")).toEqual({ "pod-security.kubernetes.io/exempt": "namespace" });
    const asTrusted = session.file("hp2.json", hostPidPod("hp2"));
    expect(await session.kubectl("create", "-f", asTrusted, "-n", "plain", "--as", "trusted")).toBe(
      "pod/hp2 created\n",
    );
    expect(annotations("pods", "plain", "hp2")).toEqual({ "pod-security.kubernetes.io/exempt": "user" });
    const kata = session.file("rc.json", hostPidPod("rc", { runtimeClassName: "kata" }));
    expect(await session.kubectl("create", "-f", kata, "-n", "plain")).toBe("pod/rc created\n");
    expect(annotations("pods", "plain", "rc")).toEqual({ "pod-security.kubernetes.io/exempt": "runtimeClass" });
  });

  it("re-evaluates pod updates only for new images and ephemeral containers", async () => {
    await session.kubectl("run", "up", "-n", "plain", "--image=busybox");
    await session.kubectlWith({}, "label", "ns", "plain", "pod-security.kubernetes.io/enforce=restricted");
    expect(await session.kubectl("label", "pod", "up", "-n", "plain", "a=b")).toBe("pod/up labeled\n");
    expect(await session.kubectlError("set", "image", "pod/up", "-n", "plain", "up=busybox:2")).toBe(
      `error: failed to patch image update to pod template: pods "up" is forbidden: violates PodSecurity "restricted:latest": ${restrictedDetail("up")}\n`,
    );
    expect(
      await session.kubectlError("debug", "up", "-n", "plain", "--image=busybox", "-c", "dbg", "--profile=general"),
    ).toBe(
      'Error from server (Forbidden): pods "up" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (containers "up", "dbg" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (containers "up", "dbg" must set securityContext.capabilities.drop=["ALL"]; container "dbg" must not include "SYS_PTRACE" in securityContext.capabilities.add), runAsNonRoot != true (pod or containers "up", "dbg" must set securityContext.runAsNonRoot=true), seccompProfile (pod or containers "up", "dbg" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")\n',
    );
  });
});

describe("PodSecurityConfiguration", () => {
  const embed = (configuration: string) =>
    `apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\n${configuration}`;

  it("defaults to privileged at latest with nothing exempt", () => {
    const privileged = { level: "privileged", version: { latest: true } };
    expect(loadPodSecurityConfiguration(undefined)).toEqual({
      defaults: { enforce: privileged, audit: privileged, warn: privileged },
      exemptions: { usernames: [], namespaces: [], runtimeClasses: [] },
    });
    expect(
      loadPodSecurityConfiguration(embed("defaults: {warn: baseline, warn-version: v1.30}\n")).defaults.warn,
    ).toEqual({
      level: "baseline",
      version: { latest: false, minor: 30 },
    });
  });

  it("refuses what kube refuses, with its texts", () => {
    expect(() => loadPodSecurityConfiguration(embed("defaults: {enforce: strict, warn-version: v2}\n"))).toThrow(
      'PodSecurity configuration error: [enforce: must be one of privileged, baseline, restricted, warn-version: must be "latest" or "v1.x"]',
    );
    expect(() =>
      loadPodSecurityConfiguration(
        embed('exemptions: {namespaces: [Bad_NS, ok, ok], usernames: ["", a, a], runtimeClasses: [x..y]}\n'),
      ),
    ).toThrow(
      `PodSecurity invalid: [exemptions.namespaces[0]: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), exemptions.namespaces[2]: Duplicate value: "ok", exemptions.runtimeClasses[0]: Invalid value: "x..y": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), exemptions.usernames[0]: Invalid value: "": username must not be empty, exemptions.usernames[2]: Duplicate value: "a"]`,
    );
    expect(() => loadPodSecurityConfiguration(embed("defaults: {enforce: baseline, other: 1}\nextra: true\n"))).toThrow(
      'strict decoding error: unknown field "defaults.other", unknown field "extra"',
    );
  });

  it("fails the start as kube-apiserver does", async () => {
    await expect(
      startServer({ admission: { configFile: join(data, "invalid-admission-config.yaml") } }),
    ).rejects.toThrow(
      'failed to initialize admission plugin "PodSecurity": PodSecurity configuration error: enforce: must be one of privileged, baseline, restricted',
    );
  });
});
