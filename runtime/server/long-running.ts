// kube-apiserver's long-running requests (its BasicLongRunningRequestCheck with the verbs and subresources
// kube-apiserver passes): they get no request deadline, are not counted against the in-flight limits and are
// not waited for by a graceful shutdown.
import type { RequestInfo } from "../routing/request-info.js";

const longRunningVerbs = new Set(["watch", "proxy"]);
const longRunningSubresources = new Set(["attach", "exec", "proxy", "log", "portforward"]);

export function isLongRunning(info: RequestInfo): boolean {
  if (longRunningVerbs.has(info.verb)) return true;
  if (info.isResourceRequest) return longRunningSubresources.has(info.subresource);
  return info.path.startsWith("/debug/pprof/");
}
