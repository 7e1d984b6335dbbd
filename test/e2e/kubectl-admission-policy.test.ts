// ValidatingAdmissionPolicy end to end with kubectl: a policy with a ConfigMap param, a variable, a
// match condition, a message expression and an audit annotation, bound three ways: Deny (kubectl
// fails with the policy's message), Warn (kubectl prints the warning) and Audit (the audit event
// carries the failure); plus a policy whose expression does not compile.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../runtime/index.js";
import { haveKubectl, type KubectlSession, startKubectlSession } from "./kubectl-session.js";

const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit
spec:
  failurePolicy: Fail
  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConstraints:
    resourceRules:
      - apiGroups: ["apps"]
        apiVersions: ["v1"]
        operations: ["CREATE", "UPDATE"]
        resources: ["deployments"]
  matchConditions:
    - name: not-exempt
      expression: "!has(object.metadata.labels) || !('exempt' in object.metadata.labels)"
  variables:
    - name: maxReplicas
      expression: "int(params.data.maxReplicas)"
  validations:
    - expression: "object.spec.replicas <= variables.maxReplicas"
      messageExpression: "'replicas must be at most ' + string(variables.maxReplicas)"
      reason: Invalid
  auditAnnotations:
    - key: replicas
      valueExpression: "string(object.spec.replicas)"
`;

const binding = (name: string, label: string, actions: string[]) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: ${name}
spec:
  policyName: replica-limit
  validationActions: [${actions.join(", ")}]
  paramRef:
    name: limits
    namespace: policy-params
    parameterNotFoundAction: Deny
  matchResources:
    namespaceSelector:
      matchLabels:
        policy: ${label}
`;

const namespace = (name: string, label: string) => `apiVersion: v1
kind: Namespace
metadata:
  name: ${name}
  labels:
    policy: ${label}
`;

describe.skipIf(!haveKubectl)("ValidatingAdmissionPolicy with kubectl", () => {
  let session: KubectlSession;
  const events: AuditEvent[] = [];

  beforeAll(async () => {
    session = await startKubectlSession({ audit: (event) => events.push(event) });
    const { kubectl, file } = session;
    await kubectl("create", "namespace", "policy-params");
    await kubectl("create", "configmap", "limits", "-n", "policy-params", "--from-literal=maxReplicas=3");
    await kubectl("apply", "-f", file("ns-enforce.yaml", namespace("enforced", "enforce")));
    await kubectl("apply", "-f", file("ns-warn.yaml", namespace("warned", "warn")));
    await kubectl("apply", "-f", file("policy.yaml", policy));
    await kubectl("apply", "-f", file("deny.yaml", binding("replica-limit-deny", "enforce", ["Deny"])));
    await kubectl("apply", "-f", file("warn.yaml", binding("replica-limit-warn", "warn", ["Warn", "Audit"])));
  }, 60_000);

  afterAll(async () => {
    await session?.close();
  });

  it("denies a deployment over the param's limit with the message expression's text", async () => {
    const error = await session.kubectlError(
      "create",
      "deployment",
      "big",
      "-n",
      "enforced",
      "--image=nginx",
      "--replicas=5",
    );
    expect(error).toContain(
      `deployments.apps "big" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-deny' denied request: replicas must be at most 3`,
    );
    await session.kubectl("create", "deployment", "small", "-n", "enforced", "--image=nginx", "--replicas=2");
  });

  it("skips an object its match condition excludes", async () => {
    const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: exempted
  namespace: enforced
  labels: { exempt: "yes" }
spec:
  replicas: 9
  selector: { matchLabels: { app: x } }
  template:
    metadata: { labels: { app: x } }
    spec: { containers: [{ name: c, image: nginx }] }
`;
    await session.kubectl("apply", "-f", session.file("exempt.yaml", manifest));
  });

  it("warns, and records the failure and the audit annotation in the audit event", async () => {
    const { stderr } = await session.kubectlWith(
      {},
      "create",
      "deployment",
      "loud",
      "-n",
      "warned",
      "--image=nginx",
      "--replicas=4",
    );
    expect(stderr).toContain(
      "Warning: Validation failed for ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-warn': replicas must be at most 3",
    );
    const event = events.find((e) => e.verb === "create" && e.objectRef?.name === "loud");
    expect(event?.annotations?.["replica-limit/replicas"]).toBe("4");
    const failures = JSON.parse(event?.annotations?.["validation.policy.admission.k8s.io/validation_failure"] ?? "[]");
    expect(failures).toEqual([
      {
        message: "replicas must be at most 3",
        policy: "replica-limit",
        binding: "replica-limit-warn",
        expressionIndex: 0,
        validationActions: ["Warn", "Audit"],
      },
    ]);
  });

  it("denies when the binding's param is missing and parameterNotFoundAction is Deny", async () => {
    await session.kubectl("delete", "configmap", "limits", "-n", "policy-params");
    const error = await session.kubectlError("create", "deployment", "orphan", "-n", "enforced", "--image=nginx");
    expect(error).toContain(
      "ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-deny' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
  });

  it("refuses a policy whose expression does not compile, naming the field", async () => {
    const broken = policy
      .replace("name: replica-limit", "name: broken")
      .replace('"object.spec.replicas <= variables.maxReplicas"', '"object.spec.replicas <="');
    const error = await session.kubectlError("apply", "-f", session.file("broken.yaml", broken));
    expect(error).toContain('The ValidatingAdmissionPolicy "broken" is invalid');
    expect(error).toContain(
      'spec.validations[0].expression: Invalid value: "object.spec.replicas <=": compilation failed: ERROR: <input>:1:',
    );
  });
});
