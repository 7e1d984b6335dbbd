import { describe, expect, it } from "vitest";
import { created, createErrors, type Kind, strategyOf, updated, updateErrors } from "./write-path.js";

const Pod: Kind = ["", "v1", "Pod"];
const pod = (spec: Record<string, unknown>): Record<string, unknown> => ({
  metadata: { name: "p", namespace: "default" },
  spec,
});
const nginx = { name: "web", image: "nginx:1.25" };

describe("pod strategy", () => {
  it("starts Pending with its QoS class", () => {
    expect(created(Pod, pod({ containers: [nginx] })).status).toEqual({ phase: "Pending", qosClass: "BestEffort" });
    const guaranteed = { ...nginx, resources: { limits: { cpu: "500m", memory: "64Mi" } } };
    expect((created(Pod, pod({ containers: [guaranteed] })).status as { qosClass: string }).qosClass).toBe(
      "Guaranteed",
    );
    const burstable = { ...nginx, resources: { requests: { cpu: "0.1" }, limits: { cpu: "200m", memory: "1Gi" } } };
    expect((created(Pod, pod({ containers: [burstable] })).status as { qosClass: string }).qosClass).toBe("Burstable");
  });

  it("marks a gated pod unschedulable", () => {
    const status = created(Pod, pod({ containers: [nginx], schedulingGates: [{ name: "example.com/wait" }] })).status;
    expect(status).toMatchObject({
      conditions: [
        {
          type: "PodScheduled",
          status: "False",
          reason: "SchedulingGated",
          message: "Scheduling is blocked due to non-empty scheduling gates",
        },
      ],
    });
  });

  it("accepts a valid pod", () => {
    expect(createErrors(Pod, pod({ containers: [nginx] }))).toEqual([]);
  });

  it("requires containers, their names and images", () => {
    expect(createErrors(Pod, pod({ containers: [] }))).toEqual(["spec.containers: Required value"]);
    expect(createErrors(Pod, pod({ containers: [{ name: "", image: "" }] }))).toEqual([
      "spec.containers[0].name: Required value",
      "spec.containers[0].image: Required value",
    ]);
    expect(createErrors(Pod, pod({ containers: [{ name: "Web_1", image: " nginx" }] }))).toEqual([
      `spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace',
    ]);
  });

  it("keeps container names unique across init and regular containers", () => {
    expect(createErrors(Pod, pod({ containers: [nginx, nginx] }))).toEqual([
      'spec.containers[1].name: Duplicate value: "web"',
    ]);
    expect(createErrors(Pod, pod({ containers: [nginx], initContainers: [nginx] }))).toEqual([
      'spec.initContainers[0].name: Duplicate value: "web"',
    ]);
  });

  it("checks ports, mounts, resources and the restart policy", () => {
    const ctr = {
      ...nginx,
      ports: [{ containerPort: 70000, name: "HTTP" }],
      volumeMounts: [{ name: "data", mountPath: "/data" }],
      resources: { requests: { cpu: "2" }, limits: { cpu: "1" } },
    };
    expect(createErrors(Pod, pod({ containers: [ctr], restartPolicy: "Sometimes" }))).toEqual([
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.containers[0].ports[0].name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
      'spec.containers[0].volumeMounts[0].name: Not found: "data"',
      'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    ]);
  });

  it("requires exactly one source per volume", () => {
    expect(createErrors(Pod, pod({ containers: [nginx], volumes: [{ name: "v" }] }))).toEqual([
      "spec.volumes[0]: Required value: must specify a volume type",
    ]);
  });

  it("forbids ephemeral containers on create and a node with scheduling gates", () => {
    expect(
      createErrors(
        Pod,
        pod({
          containers: [nginx],
          nodeName: "n1",
          schedulingGates: [{ name: "example.com/g" }],
          ephemeralContainers: [{ name: "dbg", image: "busybox" }],
        }),
      ),
    ).toEqual([
      "spec.ephemeralContainers: Forbidden: cannot be set on create",
      "spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared",
    ]);
  });

  it("checks Windows hostProcess pods as kube's validateWindowsHostProcessPod does", () => {
    const hostProcess = (value: boolean) => ({ windowsOptions: { hostProcess: value } });
    expect(createErrors(Pod, pod({ containers: [nginx], securityContext: hostProcess(true) }))).toEqual([
      "spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers",
      "spec: Forbidden: hostProcess containers are disallowed by cluster policy",
    ]);
    expect(
      createErrors(
        Pod,
        pod({
          hostNetwork: true,
          securityContext: hostProcess(true),
          containers: [{ ...nginx, securityContext: hostProcess(false) }],
        }),
      ),
    ).toEqual([
      "spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true",
    ]);
    expect(
      createErrors(
        Pod,
        pod({
          hostNetwork: true,
          containers: [
            { ...nginx, securityContext: hostProcess(true) },
            { name: "b", image: "busybox:1" },
          ],
        }),
      ),
    ).toEqual([
      'spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
      "spec: Forbidden: hostProcess containers are disallowed by cluster policy",
    ]);
  });

  describe("updates", () => {
    const stored = () => created(Pod, pod({ containers: [nginx], tolerations: [{ key: "a", operator: "Exists" }] }));

    it("may change images and add tolerations", () => {
      const next = structuredClone(stored());
      (next.spec as { containers: [{ image: string }] }).containers[0].image = "nginx:1.26";
      (next.spec as { tolerations: unknown[] }).tolerations.push({ key: "b", operator: "Exists" });
      expect(updateErrors(Pod, next, stored())).toEqual([]);
    });

    it("may not change other fields, and says which it saw", () => {
      const next = structuredClone(stored());
      (next.spec as Record<string, unknown>).nodeName = "n2";
      const [message, ...rest] = updateErrors(Pod, next, stored());
      expect(rest).toEqual([]);
      expect(message).toBe(
        'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n+ nodeName: "n2"',
      );
    });

    it("may not add containers, change tolerations or lengthen the deadline", () => {
      const old = stored();
      (old.spec as Record<string, unknown>).activeDeadlineSeconds = 10;
      const more = structuredClone(old);
      (more.spec as { containers: unknown[] }).containers.push({ name: "b", image: "x" });
      expect(updateErrors(Pod, more, old)).toEqual([
        "spec.containers: Forbidden: pod updates may not add or remove containers",
      ]);
      const changed = structuredClone(old);
      (changed.spec as Record<string, unknown>).tolerations = [{ key: "c", operator: "Exists" }];
      expect(updateErrors(Pod, changed, old)).toEqual([
        "spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds",
      ]);
      const longer = structuredClone(old);
      (longer.spec as Record<string, unknown>).activeDeadlineSeconds = 20;
      expect(updateErrors(Pod, longer, old)).toEqual([
        "spec.activeDeadlineSeconds: Invalid value: 20: must be less than or equal to previous value",
      ]);
    });

    it("takes only ephemeral containers through their subresource", () => {
      const old = stored();
      const next = structuredClone(old);
      (next.metadata as Record<string, unknown>).labels = { changed: "yes" };
      (next.spec as Record<string, unknown>).ephemeralContainers = [
        { name: "dbg", image: "busybox", targetContainerName: "nope" },
      ];
      const prepared = updated(Pod, next, old, "ephemeralcontainers");
      expect((prepared.metadata as Record<string, unknown>).labels).toBeUndefined();
      expect(
        strategyOf(Pod)
          .validate?.(prepared, old, "ephemeralcontainers")
          .map((e) => e.field),
      ).toEqual(["spec.ephemeralContainers[0].targetContainerName"]);
      const removed = structuredClone(prepared);
      (removed.spec as Record<string, unknown>).ephemeralContainers = [];
      expect(updateErrors(Pod, removed, prepared, "ephemeralcontainers")).toEqual([
        'spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be removed\n',
      ]);
    });
  });

  describe("deletion", () => {
    const grace = strategyOf(Pod).gracePeriodSeconds;
    const bound = (extra: Record<string, unknown> = {}) => ({
      spec: { nodeName: "n1", terminationGracePeriodSeconds: 30 },
      status: { phase: "Running" },
      ...extra,
    });

    it("gives a bound pod its grace period, or the one asked for", () => {
      expect(grace?.(bound(), undefined)).toBe(30);
      expect(grace?.(bound(), 5)).toBe(5);
      expect(grace?.(bound(), -3)).toBe(1);
    });

    it("deletes unbound and finished pods at once", () => {
      expect(grace?.({ spec: { terminationGracePeriodSeconds: 30 } }, undefined)).toBe(0);
      expect(grace?.(bound({ status: { phase: "Succeeded" } }), undefined)).toBe(0);
    });

    it("answers with the deleted pod", () => {
      expect(strategyOf(Pod).returnDeletedObject).toBe(true);
    });
  });
});
