// The kinds kube-apiserver's own bootstrap controllers keep, looked up once in the generated registry.
import { builtinKind } from "../registry/kinds.js";

export const priorityClasses = builtinKind("scheduling.k8s.io", "v1", "priorityclasses");
export const flowSchemas = builtinKind("flowcontrol.apiserver.k8s.io", "v1", "flowschemas");
export const priorityLevelConfigurations = builtinKind(
  "flowcontrol.apiserver.k8s.io",
  "v1",
  "prioritylevelconfigurations",
);
export const leases = builtinKind("coordination.k8s.io", "v1", "leases");

/** kube-apiserver's own writes (its post-start hooks' loopback client) carry this field manager. */
export const apiserverOwner = { manager: "kube-apiserver" };

/** Resolves after `ms`, or at once when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
