// The environment admission policies compile in: kube-apiserver's base environment (the Kubernetes
// libraries of its compatibility version); the admission variables are declared per policy.
import { kubernetesBaseEnv } from "../../cel/rules/base-environment.js";
import type { PolicyEnvironment } from "./compile-policy.js";

export function admissionPolicyEnvironment(): PolicyEnvironment {
  return { base: kubernetesBaseEnv() };
}
