// A started kapi server (MutatingAdmissionPolicy is in its default chain), and the requests the mutating
// policy tests make through it.
import { type InProcessServer, startServer } from "../../../../runtime/index.js";

/** A server with its default admission chain, MutatingAdmissionPolicy included. */
export async function startWithMutatingPolicies(): Promise<InProcessServer> {
  return startServer({ listen: false });
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export async function send(server: InProcessServer, method: string, path: string, body?: object): Promise<Answer> {
  const res = await server.request({ method, path, ...(body === undefined ? {} : { body }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export const policiesPath = "/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies";
export const bindingsPath = "/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings";

export function mutatingPolicy(name: string, spec: Record<string, unknown>): object {
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicy",
    metadata: { name },
    spec: { reinvocationPolicy: "Never", ...spec },
  };
}

export function policyBinding(name: string, spec: Record<string, unknown>): object {
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingAdmissionPolicyBinding",
    metadata: { name },
    spec,
  };
}

export const configMapRule = {
  resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] }],
};
