// EgressSelectorConfiguration (apiserver.k8s.io): kube's ValidateEgressSelectorConfiguration, which the
// schema cannot declare: each selection's protocol and transport, then unique, known selection names. Every
// error names `service.connection`, as kube's do.
import { existsSync } from "node:fs";
import { duplicate, type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import type { KubeObject } from "../object/kube-object.js";
import type { Strategy } from "../registry/strategy.js";
import { asObject, listItems } from "../validation/walk.js";

const path = "service.connection";
const protocols = ["Direct", "HTTPConnect", "GRPC"];
const selectionNames = ["cluster", "controlplane", "etcd"];

type Json = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function validateUds(uds: Json): FieldError[] {
  return text(uds.udsName) === "" ? [invalid(`${path}.udsName`, "nil", "must be present for UDS connections")] : [];
}

function validateTls(tls: Json | undefined): FieldError[] {
  if (tls === undefined) return [required(`${path}.tlsConfig`, "TLSConfig must be present when using HTTPS")];
  const errs: FieldError[] = [];
  const caBundle = text(tls.caBundle);
  if (caBundle !== "" && !existsSync(caBundle)) {
    errs.push(invalid(`${path}.tlsConfig.caBundle`, caBundle, "TLS config ca bundle does not exist"));
  }
  const clientCert = text(tls.clientCert);
  if (clientCert === "") errs.push(invalid(`${path}.tlsConfig.clientCert`, "nil", "Using TLS requires clientCert"));
  else if (!existsSync(clientCert)) {
    errs.push(invalid(`${path}.tlsConfig.clientCert`, clientCert, "TLS client cert does not exist"));
  }
  const clientKey = text(tls.clientKey);
  // kube's text repeats "requires".
  if (clientKey === "")
    errs.push(invalid(`${path}.tlsConfig.clientKey`, "nil", "Using TLS requires requires clientKey"));
  else if (!existsSync(clientKey)) {
    errs.push(invalid(`${path}.tlsConfig.clientKey`, clientKey, "TLS client key does not exist"));
  }
  return errs;
}

function validateTcp(tcp: Json): FieldError[] {
  const url = text(tcp.url);
  if (url.startsWith("http://")) {
    return tcp.tlsConfig === undefined || tcp.tlsConfig === null
      ? []
      : [invalid(`${path}.tlsConfig`, "nil", "config must not be present when using HTTP")];
  }
  if (url.startsWith("https://")) return validateTls(asObject(tcp.tlsConfig));
  return [invalid(`${path}.url`, url, "supported connection protocols are http:// and https://")];
}

function validateConnection(connection: Json): FieldError[] {
  const protocol = text(connection.proxyProtocol);
  const transport = asObject(connection.transport);
  const tcp = asObject(transport?.tcp);
  const uds = asObject(transport?.uds);
  switch (protocol) {
    case "Direct":
      return transport === undefined
        ? []
        : [invalid(`${path}.transport`, "direct", "config must be absent for direct connect")];
    case "HTTPConnect":
      if (transport === undefined) return [required(`${path}.transport`, "transport must be set for HTTPConnect")];
      if (tcp !== undefined && uds !== undefined)
        return [invalid(`${path}.tcp`, tcp, "TCP and UDS cannot both be set")];
      if (tcp === undefined && uds === undefined) return [required(`${path}.tcp`, "One of TCP or UDS must be set")];
      return tcp !== undefined ? validateTcp(tcp) : validateUds(uds ?? {});
    case "GRPC":
      if (transport === undefined) return [required(`${path}.transport`, "transport must be set for GRPC")];
      return uds !== undefined ? validateUds(uds) : [required(`${path}.uds`, "UDS must be set with GRPC")];
    default:
      return [notSupported(`${path}.protocol`, protocol, protocols)];
  }
}

function validateEgressSelectorConfiguration(obj: KubeObject): FieldError[] {
  const selections = [...listItems(obj.egressSelections)].map((s) => asObject(s) ?? {});
  const errs = selections.flatMap((s) => validateConnection(asObject(s.connection) ?? {}));
  const seen = new Set<string>();
  selections.forEach((selection, i) => {
    const name = text(selection.name).toLowerCase();
    if (seen.has(name)) {
      errs.push(duplicate(`${path}[${i}]`, name));
      return;
    }
    seen.add(name);
    if (!selectionNames.includes(name)) errs.push(notSupported(path, name, selectionNames));
  });
  return errs;
}

export const strategy: Strategy = { validate: validateEgressSelectorConfiguration };
