// The Kubernetes release kapi behaves as: the metric deprecation rules and /version read it from here.
export const kubeMinorVersion = { major: 1, minor: 36 } as const;
