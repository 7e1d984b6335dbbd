// The Service rules kube-apiserver writes by hand (ValidateService, ValidateServiceUpdate): ports, type-
// specific fields, cluster IPs and their families, and which allocated values may not change.
import { duplicate, type FieldError, forbidden, invalid, notSupported, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { qualifiedNameErrors } from "../selection/label-validation.js";
import { fieldImmutable, ipErrors, portNumberErrors, portNumOrNameErrors } from "../validation/field-rules.js";
import { dnsLabelErrors, dnsSubdomainErrors } from "../validation/name-formats.js";
import { validateLabels } from "../validation/object-meta.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

const maxSessionStickySeconds = 86400;
const portProtocols = ["SCTP", "TCP", "UDP"];
const ipFamilies = ["IPv4", "IPv6"];

function strings(value: unknown): string[] {
  return listItems(value).filter((v): v is string => typeof v === "string");
}

function ports(spec: JsonObject): JsonObject[] {
  return listItems(spec.ports).map((p) => asObject(p) ?? {});
}

export function isHeadless(spec: JsonObject): boolean {
  const ips = strings(spec.clusterIPs);
  return ips.length === 1 && ips[0] === "None";
}

function validatePort(port: JsonObject, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof port.name === "string" ? port.name : "";
  if (requireName && name === "") errs.push(required(child(path, "name")));
  else if (name !== "") {
    for (const msg of dnsLabelErrors(name)) errs.push(invalid(child(path, "name"), name, msg));
    if (names.has(name)) errs.push(duplicate(child(path, "name"), name));
    names.add(name);
  }
  if (typeof port.port === "number") {
    for (const msg of portNumberErrors(port.port)) errs.push(invalid(child(path, "port"), port.port, msg));
  }
  if (port.protocol === "") errs.push(required(child(path, "protocol")));
  else if (typeof port.protocol === "string" && !portProtocols.includes(port.protocol)) {
    errs.push(notSupported(child(path, "protocol"), port.protocol, portProtocols));
  }
  errs.push(...portNumOrNameErrors(port.targetPort, child(path, "targetPort")));
  if (typeof port.appProtocol === "string") {
    for (const msg of qualifiedNameErrors(port.appProtocol)) {
      errs.push(invalid(child(path, "appProtocol"), port.appProtocol, msg));
    }
  }
  return errs;
}

function validateTypeFields(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const firstIP = "spec.clusterIPs[0]";
  switch (spec.type) {
    case "LoadBalancer":
    case "NodePort":
      if (isHeadless(spec)) errs.push(invalid(firstIP, "None", `may not be set to 'None' for ${spec.type} services`));
      break;
    case "ExternalName": {
      const forbid = "may not be set for ExternalName services";
      if (strings(spec.clusterIPs).length > 0) errs.push(forbidden("spec.clusterIPs", forbid));
      if (strings(spec.ipFamilies).length > 0) errs.push(forbidden("spec.ipFamilies", forbid));
      if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null)
        errs.push(forbidden("spec.ipFamilyPolicy", forbid));
      // A CNAME may end in a dot to say it is fully qualified.
      const cname = (typeof spec.externalName === "string" ? spec.externalName : "").replace(/\.$/, "");
      if (cname === "") errs.push(required("spec.externalName"));
      else for (const msg of dnsSubdomainErrors(cname)) errs.push(invalid("spec.externalName", cname, msg));
      break;
    }
  }
  return errs;
}

function validateSessionAffinity(spec: JsonObject): FieldError[] {
  const configPath = "spec.sessionAffinityConfig";
  if (spec.sessionAffinity === "None") {
    return spec.sessionAffinityConfig === undefined || spec.sessionAffinityConfig === null
      ? []
      : [forbidden(configPath, "must not be set when session affinity is None")];
  }
  if (spec.sessionAffinity !== "ClientIP") return [];
  const when = "when session affinity type is ClientIP";
  const config = asObject(spec.sessionAffinityConfig);
  if (config === undefined) return [required(configPath, when)];
  const clientIP = asObject(config.clientIP);
  if (clientIP === undefined) return [required(child(configPath, "clientIP"), when)];
  const timeoutPath = child(child(configPath, "clientIP"), "timeoutSeconds");
  const timeout = clientIP.timeoutSeconds;
  if (typeof timeout !== "number") return [required(timeoutPath, when)];
  return timeout <= 0 || timeout > maxSessionStickySeconds
    ? [invalid(timeoutPath, timeout, `must be greater than 0 and less than ${maxSessionStickySeconds}`)]
    : [];
}

/** ValidateServiceClusterIPsRelatedFields. */
export function validateClusterIPs(spec: JsonObject): FieldError[] {
  if (spec.type === "ExternalName") return [];
  const errs: FieldError[] = [];
  const path = "spec.clusterIPs";
  const clusterIP = typeof spec.clusterIP === "string" ? spec.clusterIP : "";
  const ips = strings(spec.clusterIPs);
  if (clusterIP !== "") {
    if (ips.length === 0) errs.push(required(path));
    else if (ips[0] !== clusterIP) errs.push(invalid(path, spec.clusterIPs, "first value must match `clusterIP`"));
  } else if (ips.length > 0) {
    errs.push(invalid(path, spec.clusterIPs, "must be empty when `clusterIP` is not specified"));
  }
  const seen = new Set<string>();
  strings(spec.ipFamilies).forEach((family, i) => {
    const familyPath = index("spec.ipFamilies", i);
    if (!ipFamilies.includes(family)) errs.push(notSupported(familyPath, family, ipFamilies));
    if (seen.has(family)) errs.push(duplicate(familyPath, family));
    seen.add(family);
  });
  let invalidIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === "None") {
      if (ips.length > 1) {
        invalidIPs = true;
        errs.push(invalid(path, spec.clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = ipErrors(ip, index(path, i));
    invalidIPs ||= ipErrs.length > 0;
    errs.push(...ipErrs);
  });
  if (ips.length > 2) errs.push(invalid(path, spec.clusterIPs, "may only hold up to 2 values"));
  if (invalidIPs || ips.length < 2) return errs;
  const [first, second] = ips;
  if ((first?.includes(":") ?? false) === (second?.includes(":") ?? false)) {
    errs.push(invalid(path, spec.clusterIPs, "may specify no more than one IP for each IP family"));
  }
  return errs;
}

function needsNodePorts(spec: JsonObject): boolean {
  return spec.type === "NodePort" || spec.type === "LoadBalancer";
}

function validateNodePorts(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  ports(spec).forEach((port, i) => {
    const nodePort = port.nodePort;
    if (typeof nodePort !== "number" || nodePort === 0) return;
    const path = child(index("spec.ports", i), "nodePort");
    if (spec.type === "ClusterIP") errs.push(forbidden(path, "may not be used when `type` is 'ClusterIP'"));
    const key = `${String(port.protocol)}/${nodePort}`;
    if (seen.has(key)) errs.push(duplicate(path, nodePort));
    seen.add(key);
  });
  return errs;
}

function validateLoadBalancerFields(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const onlyLB = "may only be used when `type` is 'LoadBalancer'";
  const isLB = spec.type === "LoadBalancer";
  // kube spells this path with a capital L.
  if (strings(spec.loadBalancerSourceRanges).length > 0 && !isLB)
    errs.push(forbidden("spec.LoadBalancerSourceRanges", onlyLB));
  const allocate = spec.allocateLoadBalancerNodePorts;
  if (allocate !== undefined && allocate !== null && !isLB)
    errs.push(forbidden("spec.allocateLoadBalancerNodePorts", onlyLB));
  // kube reports this one without the `spec.` prefix.
  if (isLB && (allocate === undefined || allocate === null)) errs.push(required("allocateLoadBalancerNodePorts"));
  const lbClass = spec.loadBalancerClass;
  if (typeof lbClass === "string") {
    if (!isLB) errs.push(forbidden("spec.loadBalancerClass", onlyLB));
    for (const msg of qualifiedNameErrors(lbClass)) errs.push(invalid("spec.loadBalancerClass", lbClass, msg));
  }
  return errs;
}

function validateTrafficPolicy(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const externallyAccessible =
    needsNodePorts(spec) || (spec.type === "ClusterIP" && strings(spec.externalIPs).length > 0);
  const policy = spec.externalTrafficPolicy;
  if (!externallyAccessible && typeof policy === "string" && policy !== "") {
    errs.push(invalid("spec.externalTrafficPolicy", policy, "may only be set for externally-accessible services"));
  }
  const needsHealthCheck = spec.type === "LoadBalancer" && policy === "Local";
  const hc = spec.healthCheckNodePort;
  if (!needsHealthCheck && typeof hc === "number" && hc !== 0) {
    const detail = "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'";
    errs.push(invalid("spec.healthCheckNodePort", hc, detail));
  } else if (needsHealthCheck && typeof hc === "number" && hc !== 0) {
    for (const msg of portNumberErrors(hc)) errs.push(invalid("spec.healthCheckNodePort", hc, msg));
  }
  return errs;
}

/** ValidateService without the metadata rules every kind shares. */
export function validateServiceSpec(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const servicePorts = ports(spec);
  if (servicePorts.length === 0 && !isHeadless(spec) && spec.type !== "ExternalName") errs.push(required("spec.ports"));
  errs.push(...validateTypeFields(spec));
  const names = new Set<string>();
  servicePorts.forEach((port, i) => {
    errs.push(...validatePort(port, servicePorts.length > 1, names, index("spec.ports", i)));
  });
  errs.push(...validateLabels(spec.selector, "spec.selector"));
  errs.push(...validateSessionAffinity(spec));
  errs.push(...validateClusterIPs(spec));
  strings(spec.externalIPs).forEach((ip, i) => {
    errs.push(...ipErrors(ip, index("spec.externalIPs", i)));
  });
  errs.push(...validateNodePorts(spec));
  errs.push(...validateLoadBalancerFields(spec));
  errs.push(...validateTrafficPolicy(spec));
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: the primary cluster IP never changes once set. */
function validateClusterIPsUpdate(spec: JsonObject, old: JsonObject): FieldError[] {
  if (spec.type === "ExternalName" || old.type === "ExternalName") return [];
  if (isHeadless(spec) && isHeadless(old)) return [];
  const ips = strings(spec.clusterIPs);
  const oldIPs = strings(old.clusterIPs);
  const path = "spec.clusterIPs";
  const mayNotChange = "may not change once set";
  const errs: FieldError[] = [];
  if (ips.length === oldIPs.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(invalid(index(path, i), spec.clusterIPs, mayNotChange));
    });
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0)
      errs.push(invalid(index(path, 0), spec.clusterIPs ?? null, "primary clusterIP can not be unset"));
    else if (ips[0] !== oldIPs[0]) errs.push(invalid(index(path, 0), spec.clusterIPs, mayNotChange));
    if (ips.length === 1 && spec.ipFamilyPolicy !== "SingleStack") {
      const detail = "must be set to 'SingleStack' when releasing the secondary clusterIP";
      errs.push(invalid("spec.ipFamilyPolicy", spec.ipFamilyPolicy ?? null, detail));
    }
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
    errs.push(invalid(index(path, 0), spec.clusterIPs, mayNotChange));
  }
  return errs;
}

/** ValidateServiceUpdate without the metadata rules and the checks of the new object. */
export function validateServiceSpecUpdate(spec: JsonObject, old: JsonObject): FieldError[] {
  const errs = validateClusterIPsUpdate(spec, old);
  const bothLB = spec.type === "LoadBalancer" && old.type === "LoadBalancer";
  if (bothLB && (spec.loadBalancerClass ?? null) !== (old.loadBalancerClass ?? null)) {
    errs.push(invalid("spec.loadBalancerClass", spec.loadBalancerClass ?? null, "may not change once set"));
  }
  const healthChecked = (s: JsonObject): boolean => s.type === "LoadBalancer" && s.externalTrafficPolicy === "Local";
  if (healthChecked(spec) && healthChecked(old) && spec.healthCheckNodePort !== old.healthCheckNodePort) {
    errs.push(forbidden("spec.healthCheckNodePort", fieldImmutable));
  }
  return errs;
}
