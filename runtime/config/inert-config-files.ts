// `--egress-selector-config-file` and `--tracing-config-file`: read and validated at start with kube's errors,
// which stop the start as they stop kube-apiserver's. kapi dials no egress proxies and exports no traces, so a
// valid file changes nothing; the caller prints the notices this returns to say so.
import { readFileSync } from "node:fs";
import { formatFieldErrors } from "../errors/format-field-error.js";
import { ConfigError, type ConfigScheme, configFieldErrors, decodeConfig, defaultConfig } from "./config-document.js";

export interface InertConfigFiles {
  egressSelectorConfigFile?: string;
  tracingConfigFile?: string;
}

const egressScheme: ConfigScheme = {
  name: "pkg/server/egressselector/config.go:33",
  kinds: [
    "apiserver.k8s.io/v1beta1/EgressSelectorConfiguration",
    "apiserver.k8s.io/v1alpha1/EgressSelectorConfiguration",
  ],
};

const tracingScheme: ConfigScheme = {
  name: "pkg/server/options/tracing.go:49",
  kinds: [
    "apiserver.config.k8s.io/v1/TracingConfiguration",
    "apiserver.config.k8s.io/v1beta1/TracingConfiguration",
    "apiserver.config.k8s.io/v1alpha1/TracingConfiguration",
  ],
};

function goError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === "ENOENT") return `open ${e.path}: no such file or directory`;
  if (e.code === "EACCES") return `open ${e.path}: permission denied`;
  if (e.code === "EISDIR") return `read ${e.path}: is a directory`;
  return e.message;
}

function decode(text: string, scheme: ConfigScheme, readPrefix: string): Record<string, unknown> {
  try {
    return defaultConfig(decodeConfig(text, { scheme }).object);
  } catch (error) {
    if (error instanceof ConfigError) throw new Error(`${readPrefix}${error.message}`);
    throw error;
  }
}

function checkEgress(path: string): void {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(
      `failed to read egress selector config: unable to read egress selector configuration from ${JSON.stringify(path)} [${goError(error)}]`,
    );
  }
  const object = decode(text, egressScheme, "failed to read egress selector config: ");
  const errors = configFieldErrors(object);
  if (errors.length > 0) {
    throw new Error(`failed to validate egress selector configuration: ${formatFieldErrors(errors)}`);
  }
}

function checkTracing(path: string): void {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(
      `failed to read tracing config: unable to read tracing configuration from ${JSON.stringify(path)}: ${goError(error)}`,
    );
  }
  const object = decode(
    text,
    tracingScheme,
    "failed to read tracing config: unable to decode tracing configuration data: ",
  );
  const errors = configFieldErrors(object);
  if (errors.length > 0) throw new Error(`failed to validate tracing configuration: ${formatFieldErrors(errors)}`);
}

/** Checks the files as kube-apiserver does at start (throws kube's error) and returns one notice per file. */
export function checkInertConfigFiles(files: InertConfigFiles): string[] {
  const notices: string[] = [];
  if (files.egressSelectorConfigFile !== undefined) {
    checkEgress(files.egressSelectorConfigFile);
    notices.push(
      `egress selector configuration ${files.egressSelectorConfigFile} is valid; it has no effect: kapi makes no connections through egress proxies`,
    );
  }
  if (files.tracingConfigFile !== undefined) {
    checkTracing(files.tracingConfigFile);
    notices.push(`tracing configuration ${files.tracingConfigFile} is valid; it has no effect: kapi exports no traces`);
  }
  return notices;
}
