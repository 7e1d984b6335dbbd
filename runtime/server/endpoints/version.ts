// `/version`: kube-apiserver's version.Info, claiming the Kubernetes release kapi behaves as.
import { arch, platform } from "node:process";

const goArch: Record<string, string> = { x64: "amd64", arm64: "arm64", ia32: "386", arm: "arm" };

export const versionInfo = {
  major: "1",
  minor: "36",
  emulationMajor: "1",
  emulationMinor: "36",
  minCompatibilityMajor: "1",
  minCompatibilityMinor: "35",
  gitVersion: "v1.36.2-kapi",
  gitCommit: "",
  gitTreeState: "",
  buildDate: "",
  goVersion: "",
  compiler: "",
  platform: `${platform}/${goArch[arch] ?? arch}`,
};

export const versionBody = `${JSON.stringify(versionInfo, null, 2)}\n`;
