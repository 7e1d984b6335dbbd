// `/version`: kube-apiserver's version.Info, claiming the Kubernetes release kapi behaves as.
import { arch, platform } from "node:process";
import { kubeMinorVersion } from "../../metrics/kube-version.js";

const goArch: Record<string, string> = { x64: "amd64", arm64: "arm64", ia32: "386", arm: "arm" };

export const versionInfo = {
  major: String(kubeMinorVersion.major),
  minor: String(kubeMinorVersion.minor),
  emulationMajor: String(kubeMinorVersion.major),
  emulationMinor: String(kubeMinorVersion.minor),
  minCompatibilityMajor: String(kubeMinorVersion.major),
  minCompatibilityMinor: String(kubeMinorVersion.minor - 1),
  gitVersion: `v${kubeMinorVersion.major}.${kubeMinorVersion.minor}.2-kapi`,
  gitCommit: "",
  gitTreeState: "",
  buildDate: "",
  goVersion: "",
  compiler: "",
  platform: `${platform}/${goArch[arch] ?? arch}`,
};

export const versionBody = `${JSON.stringify(versionInfo, null, 2)}\n`;
