// The Kubernetes release kapi behaves as, for the metric deprecation rules (/version reports the same release).
export const kubeMinorVersion = { major: 1, minor: 36 } as const;
