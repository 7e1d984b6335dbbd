// The pod spec rules kube-apiserver writes by hand (ValidatePodSpec, ValidatePodTemplateSpec), for pods
// and every pod template. Fields the schema requires and a client left out are reported by the
// generated validators; these rules cover what a schema cannot say.
import {
  duplicate,
  type FieldError,
  forbidden,
  invalid,
  notFound,
  notSupported,
  required,
} from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import type { ServerLocalKey } from "../registry/server-locals.js";
import type { WriteEnvironment } from "../registry/strategy.js";
import {
  inclusiveRangeError,
  isNegative,
  maxInt32,
  portNameErrors,
  portNumberErrors,
} from "../validation/field-rules.js";
import { dnsLabelErrors, dnsSubdomainErrors } from "../validation/name-formats.js";
import { validateAnnotations, validateLabels } from "../validation/object-meta.js";
import { quantityValue } from "../validation/quantity.js";
import { asObject, type JsonObject, listItems } from "../validation/walk.js";

/** kube's capabilities: what the server lets pods do (`--allow-privileged`). */
export interface PodCapabilities {
  allowPrivileged: boolean;
}

/** The server's pod capabilities, which startServer sets from its options. */
export const podCapabilitiesKey: ServerLocalKey<PodCapabilities> = { name: "pod-capabilities" };

/** The capabilities a write's environment carries; kube's defaults (no privileged containers) without one. */
export function podCapabilities(env: WriteEnvironment | undefined): PodCapabilities {
  return env?.local(podCapabilitiesKey) ?? { allowPrivileged: false };
}

function objects(value: unknown): JsonObject[] {
  return listItems(value).map((v) => asObject(v) ?? {});
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A required string that is present but empty (absent ones are the schema's to report). */
function emptyString(value: unknown): boolean {
  return value === "";
}

const portProtocols = ["SCTP", "TCP", "UDP"];

function validateContainerPorts(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objects(ports).forEach((port, i) => {
    const portPath = index(path, i);
    const name = text(port.name) ?? "";
    if (name !== "") {
      const msgs = portNameErrors(name);
      for (const msg of msgs) errs.push(invalid(child(portPath, "name"), name, msg));
      if (msgs.length === 0 && names.has(name)) errs.push(duplicate(child(portPath, "name"), name));
      names.add(name);
    }
    if (port.containerPort === 0) errs.push(required(child(portPath, "containerPort")));
    else if (typeof port.containerPort === "number") {
      for (const msg of portNumberErrors(port.containerPort)) {
        errs.push(invalid(child(portPath, "containerPort"), port.containerPort, msg));
      }
    }
    if (typeof port.hostPort === "number" && port.hostPort !== 0) {
      for (const msg of portNumberErrors(port.hostPort))
        errs.push(invalid(child(portPath, "hostPort"), port.hostPort, msg));
    }
    if (emptyString(port.protocol)) errs.push(required(child(portPath, "protocol")));
    else if (typeof port.protocol === "string" && !portProtocols.includes(port.protocol)) {
      errs.push(notSupported(child(portPath, "protocol"), port.protocol, portProtocols));
    }
  });
  return errs;
}

function validateVolumeMounts(mounts: unknown, volumes: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objects(mounts).forEach((mount, i) => {
    const mountPath = index(path, i);
    const name = text(mount.name) ?? "";
    if (emptyString(mount.name)) errs.push(required(child(mountPath, "name")));
    if (!volumes.has(name)) errs.push(notFound(child(mountPath, "name"), name));
    if (emptyString(mount.mountPath)) errs.push(required(child(mountPath, "mountPath")));
  });
  return errs;
}

/** Quantities are not negative, and a request does not exceed its limit. */
function validateResources(resources: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const res = asObject(resources) ?? {};
  const limits = asObject(res.limits) ?? {};
  const requests = asObject(res.requests) ?? {};
  for (const [kind, list] of [
    ["limits", limits],
    ["requests", requests],
  ] as const) {
    for (const [name, q] of Object.entries(list)) {
      const v = quantityValue(q);
      if (v !== undefined && v < 0) errs.push(invalid(child(child(path, kind), name), q, isNegative));
    }
  }
  for (const [name, q] of Object.entries(requests)) {
    const request = quantityValue(q);
    const limit = quantityValue(limits[name]);
    if (request !== undefined && limit !== undefined && request > limit) {
      const detail = `must be less than or equal to ${name} limit of ${String(limits[name])}`;
      errs.push(invalid(child(path, "requests"), q, detail));
    }
  }
  return errs;
}

/** ValidateSecurityContext's rule of the cluster policy: privileged containers only with --allow-privileged. */
function validateSecurityContext(ctr: JsonObject, path: string, capabilities: PodCapabilities): FieldError[] {
  const privileged = asObject(ctr.securityContext)?.privileged;
  if (privileged === true && !capabilities.allowPrivileged) {
    return [forbidden(child(child(path, "securityContext"), "privileged"), "disallowed by cluster policy")];
  }
  return [];
}

/** validateContainerCommon: rules for every container, regular, init or ephemeral. */
export function validateContainer(
  ctr: JsonObject,
  volumes: ReadonlySet<string>,
  path: string,
  capabilities: PodCapabilities,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(ctr.name);
  if (emptyString(name)) errs.push(required(child(path, "name")));
  else if (name !== undefined)
    for (const msg of dnsLabelErrors(name)) errs.push(invalid(child(path, "name"), name, msg));
  if (ctr.image === undefined || ctr.image === null || ctr.image === "") errs.push(required(child(path, "image")));
  if (emptyString(ctr.terminationMessagePolicy)) errs.push(required(child(path, "terminationMessagePolicy")));
  errs.push(...validateContainerPorts(ctr.ports, child(path, "ports")));
  errs.push(...validateVolumeMounts(ctr.volumeMounts, volumes, child(path, "volumeMounts")));
  errs.push(...validateResources(ctr.resources, child(path, "resources")));
  errs.push(...validateSecurityContext(ctr, path, capabilities));
  return errs;
}

/** A pod (not a template) may not carry images padded with whitespace. */
function validateImagesOnlyForPod(containers: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objects(containers).forEach((ctr, i) => {
    const image = text(ctr.image);
    if (image !== undefined && image !== image.trim()) {
      errs.push(invalid(child(index(path, i), "image"), image, "must not have leading or trailing whitespace"));
    }
  });
  return errs;
}

/** Volume names, each volume with exactly one source; returns the names containers may mount. */
function validateVolumes(volumes: unknown, path: string, errs: FieldError[]): Set<string> {
  const names = new Set<string>();
  objects(volumes).forEach((vol, i) => {
    const volPath = index(path, i);
    const name = text(vol.name) ?? "";
    const sources = Object.keys(vol).filter((k) => k !== "name" && vol[k] !== null && vol[k] !== undefined);
    const volErrs: FieldError[] = [];
    if (emptyString(vol.name)) volErrs.push(required(child(volPath, "name")));
    else for (const msg of dnsLabelErrors(name)) volErrs.push(invalid(child(volPath, "name"), name, msg));
    if (sources.length === 0) volErrs.push(required(volPath, "must specify a volume type"));
    for (const extra of sources.slice(1))
      volErrs.push(forbidden(child(volPath, extra), "may not specify more than 1 volume type"));
    if (volErrs.length === 0) names.add(name);
    errs.push(...volErrs);
  });
  return names;
}

const lifecycleFields = ["lifecycle", "livenessProbe", "readinessProbe", "startupProbe"];

function validateInitContainers(
  spec: JsonObject,
  volumes: ReadonlySet<string>,
  path: string,
  capabilities: PodCapabilities,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(objects(spec.containers).map((c) => text(c.name) ?? ""));
  objects(spec.initContainers).forEach((ctr, i) => {
    const ctrPath = index(path, i);
    errs.push(...validateContainer(ctr, volumes, ctrPath, capabilities));
    const restartPolicy = text(ctr.restartPolicy);
    if (restartPolicy !== undefined && restartPolicy !== "Always") {
      errs.push(notSupported(child(ctrPath, "restartPolicy"), restartPolicy, ["Always"]));
    }
    const name = text(ctr.name) ?? "";
    if (names.has(name)) errs.push(duplicate(child(ctrPath, "name"), name));
    else if (name !== "") names.add(name);
    if (restartPolicy === "Always") return;
    for (const field of lifecycleFields) {
      if (ctr[field] !== undefined && ctr[field] !== null) {
        errs.push(forbidden(child(ctrPath, field), "may not be set for init containers without restartPolicy=Always"));
      }
    }
  });
  return errs;
}

function validateNames(spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [field, check] of [
    ["serviceAccountName", dnsSubdomainErrors],
    ["nodeName", dnsSubdomainErrors],
    ["hostname", dnsLabelErrors],
    ["subdomain", dnsLabelErrors],
  ] as const) {
    const value = text(spec[field]);
    if (value === undefined || value === "") continue;
    for (const msg of check(value)) errs.push(invalid(child(path, field), value, msg));
  }
  return errs;
}

/** The hostProcess setting of a pod's or a container's securityContext.windowsOptions, if set. */
function hostProcessOf(owner: JsonObject): boolean | undefined {
  const value = asObject(asObject(owner.securityContext)?.windowsOptions)?.hostProcess;
  return typeof value === "boolean" ? value : undefined;
}

/**
 * validateWindowsHostProcessPod: a pod with a hostProcess container must make every container one, use the
 * host's network and be allowed by the cluster policy (--allow-privileged); a container may not contradict
 * the pod's setting.
 */
function validateHostProcess(spec: JsonObject, path: string, capabilities: PodCapabilities): FieldError[] {
  const errs: FieldError[] = [];
  const podHostProcess = hostProcessOf(spec);
  let containers = 0;
  let hostProcessContainers = 0;
  for (const list of ["initContainers", "containers", "ephemeralContainers"]) {
    objects(spec[list]).forEach((ctr, i) => {
      containers++;
      const own = hostProcessOf(ctr);
      if (podHostProcess !== undefined && own !== undefined && podHostProcess !== own) {
        const fieldPath = child(
          child(child(index(child(path, list), i), "securityContext"), "windowsOptions"),
          "hostProcess",
        );
        errs.push(
          invalid(
            fieldPath,
            own,
            `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`,
          ),
        );
      }
      if (own ?? podHostProcess) hostProcessContainers++;
    });
  }
  if (hostProcessContainers === 0) return errs;
  if (hostProcessContainers !== containers) {
    errs.push(
      invalid(
        path,
        "",
        "If pod contains any hostProcess containers then all containers must be HostProcess containers",
      ),
    );
  }
  const hostNetwork = spec.hostNetwork === true;
  if (!hostNetwork) {
    errs.push(
      invalid(
        child(path, "hostNetwork"),
        hostNetwork,
        "hostNetwork must be true if pod contains any hostProcess containers",
      ),
    );
  }
  if (!capabilities.allowPrivileged)
    errs.push(forbidden(path, "hostProcess containers are disallowed by cluster policy"));
  return errs;
}

/** ValidatePodSpec; `isPod` adds the rules kube keeps for pods and not for templates. */
export function validatePodSpec(
  spec: JsonObject,
  path: string,
  isPod: boolean,
  capabilities: PodCapabilities,
): FieldError[] {
  const errs: FieldError[] = [];
  const volumes = validateVolumes(spec.volumes, child(path, "volumes"), errs);
  const containersPath = child(path, "containers");
  if (Array.isArray(spec.containers) && spec.containers.length === 0) errs.push(required(containersPath));
  objects(spec.containers).forEach((ctr, i) => {
    const ctrPath = index(containersPath, i);
    errs.push(...validateContainer(ctr, volumes, ctrPath, capabilities));
    if (ctr.restartPolicy !== undefined && ctr.restartPolicy !== null) {
      errs.push(forbidden(child(ctrPath, "restartPolicy"), "may not be set for non-init containers"));
    }
  });
  errs.push(...validateInitContainers(spec, volumes, child(path, "initContainers"), capabilities));
  if (emptyString(spec.restartPolicy)) errs.push(required(child(path, "restartPolicy")));
  if (emptyString(spec.dnsPolicy)) errs.push(required(child(path, "dnsPolicy")));
  errs.push(...validateLabels(spec.nodeSelector, child(path, "nodeSelector")));
  errs.push(...validateHostProcess(spec, path, capabilities));
  errs.push(...validateNames(spec, path));
  const deadline = spec.activeDeadlineSeconds;
  if (typeof deadline === "number" && (deadline < 1 || deadline > maxInt32)) {
    errs.push(invalid(child(path, "activeDeadlineSeconds"), deadline, inclusiveRangeError(1, maxInt32)));
  }
  if (isPod) {
    errs.push(...validateImagesOnlyForPod(spec.containers, containersPath));
    errs.push(...validateImagesOnlyForPod(spec.initContainers, child(path, "initContainers")));
  }
  return errs;
}

/** ValidatePodTemplateSpec: the template's labels and annotations are reported on the template's path. */
export function validatePodTemplateSpec(
  template: JsonObject,
  path: string,
  capabilities: PodCapabilities,
): FieldError[] {
  const meta = asObject(template.metadata) ?? {};
  const errs = [...validateLabels(meta.labels, child(path, "labels"))];
  errs.push(...validateAnnotations(meta.annotations, child(path, "annotations")));
  const spec = asObject(template.spec);
  if (spec === undefined) return errs;
  errs.push(...validatePodSpec(spec, child(path, "spec"), false, capabilities));
  if (listItems(spec.ephemeralContainers).length > 0) {
    errs.push(
      forbidden(child(child(path, "spec"), "ephemeralContainers"), "ephemeral containers not allowed in pod template"),
    );
  }
  return errs;
}
