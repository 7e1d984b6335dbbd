// kube-apiserver's ServiceAccount admission: a new pod runs as a service account that exists (`default`
// when it names none), gets its token volume unless automounting is off, and inherits the account's image
// pull secrets when it has none. Mirror pods, which the kubelet creates from static manifests, may name no
// service account and no secret. An account annotated `kubernetes.io/enforce-mountable-secrets` limits its
// pods (and ephemeral containers added later) to the secrets it lists.

import { serviceAccounts } from "../../controllers/core-kinds.js";
import { StatusError } from "../../errors/status-error.js";
import type { KubeObject } from "../../object/kube-object.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { asObject, type JsonObject, listItems } from "../../validation/walk.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import {
  podSecretNames,
  projectsServiceAccountToken,
  referencedNames,
  unlistedContainerSecret,
  unlistedSecretReference,
} from "./secret-references.js";
import { mountServiceAccountToken } from "./token-volume.js";

const defaultServiceAccount = "default";
const mirrorPodAnnotation = "kubernetes.io/config.mirror";
const enforceMountableSecretsAnnotation = "kubernetes.io/enforce-mountable-secrets";

/** Live lookups of the `default` account, which its controller may not have created yet, and their pause. */
const defaultAccountAttempts = 10;
function retryIntervalMs(): number {
  return 100 + Math.floor(Math.random() * 100);
}

/** Go's strconv.ParseBool, true side; anything else (an error included) is false. */
const trueTexts: ReadonlySet<string> = new Set(["1", "t", "T", "TRUE", "true", "True"]);

export interface ServiceAccountAdmissionOptions {
  /** The pause between live lookups of the `default` account (kube: 100 to 200 ms, drawn once per lookup). */
  retryIntervalMs?: () => number;
}

/** The pod's account: `serviceAccountName`, else the deprecated `serviceAccount` that kube reads as its alias. */
function accountName(spec: JsonObject): string {
  for (const field of ["serviceAccountName", "serviceAccount"]) {
    const value = spec[field];
    if (typeof value === "string" && value !== "") return value;
  }
  return "";
}

function isMirrorPod(pod: KubeObject): boolean {
  const annotations = asObject(asObject(pod.metadata)?.annotations);
  return annotations !== undefined && Object.hasOwn(annotations, mirrorPodAnnotation);
}

/** Pod preference first, then the account's; on when neither says. */
function shouldAutomount(serviceAccount: JsonObject, spec: JsonObject): boolean {
  if (typeof spec.automountServiceAccountToken === "boolean") return spec.automountServiceAccountToken;
  if (typeof serviceAccount.automountServiceAccountToken === "boolean")
    return serviceAccount.automountServiceAccountToken;
  return true;
}

function enforcesMountableSecrets(serviceAccount: JsonObject): boolean {
  const value = asObject(asObject(serviceAccount.metadata)?.annotations)?.[enforceMountableSecretsAnnotation];
  return typeof value === "string" && trueTexts.has(value);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function serviceAccountAdmission(
  api: ResourceApi,
  options: ServiceAccountAdmissionOptions = {},
): AdmissionPlugin {
  const interval = options.retryIntervalMs ?? retryIntervalMs;

  async function read(namespace: string, name: string, cached: boolean): Promise<KubeObject | undefined> {
    try {
      const get = { kind: serviceAccounts, namespace, name };
      return (await api.get(get, cached ? { resourceVersion: "0" } : {})).object;
    } catch (error) {
      if (error instanceof StatusError && error.code === 404) return undefined;
      throw error;
    }
  }

  /** The cache first, then live reads: ten for `default`, which its controller creates, else one. */
  async function lookUp(namespace: string, name: string): Promise<JsonObject | undefined> {
    const cached = await read(namespace, name, true);
    if (cached !== undefined) return cached;
    const attempts = name === defaultServiceAccount ? defaultAccountAttempts : 1;
    const pause = interval();
    for (let i = 0; i < attempts; i++) {
      if (i !== 0) await sleep(pause);
      const live = await read(namespace, name, false);
      if (live !== undefined) return live;
    }
    return undefined;
  }

  /** The account, or kube's refusal naming why it could not be read. */
  async function serviceAccountOf(a: AdmissionAttributes, name: string): Promise<JsonObject> {
    const namespace = a.namespace ?? "";
    let found: JsonObject | undefined;
    let why: string;
    try {
      found = await lookUp(namespace, name);
      why = `serviceaccount "${name}" not found`;
    } catch (error) {
      why = (error as Error).message;
    }
    if (found !== undefined) return found;
    throw admissionForbidden(a, `error looking up service account ${namespace}/${name}: ${why}`);
  }

  function podOf(a: AdmissionAttributes): KubeObject | undefined {
    if (a.kind.group !== "" || a.kind.resource.plural !== "pods") return undefined;
    if (a.subresource !== undefined && a.subresource !== "ephemeralcontainers") return undefined;
    if (a.operation !== "CREATE" && a.operation !== "UPDATE") return undefined;
    return a.object;
  }

  function noAccount(a: AdmissionAttributes, pod: KubeObject): StatusError {
    const podName = asObject(pod.metadata)?.name;
    return admissionForbidden(
      a,
      `no service account specified for pod ${a.namespace ?? ""}/${typeof podName === "string" ? podName : ""}`,
    );
  }

  function validateMirrorPod(a: AdmissionAttributes, spec: JsonObject): void {
    if (accountName(spec) !== "") throw admissionForbidden(a, "a mirror pod may not reference service accounts");
    if (podSecretNames(spec).length > 0) throw admissionForbidden(a, "a mirror pod may not reference secrets");
    if (projectsServiceAccountToken(spec)) {
      throw admissionForbidden(a, "a mirror pod may not use ServiceAccountToken volume projections");
    }
  }

  /** An ephemeral container may name only the secrets an enforcing account lists; kube answers a bare 500. */
  async function validateEphemeralContainers(a: AdmissionAttributes, pod: KubeObject, spec: JsonObject) {
    const name = accountName(spec);
    if (name === "") throw noAccount(a, pod);
    const serviceAccount = await serviceAccountOf(a, name);
    if (!enforcesMountableSecrets(serviceAccount)) return;
    const mountable = referencedNames(serviceAccount, "secrets");
    for (const item of listItems(spec.ephemeralContainers)) {
      const refused = unlistedContainerSecret(asObject(item) ?? {}, "ephemeral container", mountable, name);
      if (refused !== undefined) throw new StatusError(500, undefined, refused);
    }
  }

  async function validate(a: AdmissionAttributes): Promise<void> {
    const pod = podOf(a);
    if (pod === undefined) return;
    const spec = asObject(pod.spec) ?? {};
    if (a.operation === "UPDATE" && a.subresource === "ephemeralcontainers") {
      return validateEphemeralContainers(a, pod, spec);
    }
    if (a.operation !== "CREATE") return;
    if (isMirrorPod(pod)) return validateMirrorPod(a, spec);
    const name = accountName(spec);
    if (name === "") throw noAccount(a, pod);
    const serviceAccount = await serviceAccountOf(a, name);
    if (!enforcesMountableSecrets(serviceAccount)) return;
    const refused = unlistedSecretReference(spec, serviceAccount);
    if (refused !== undefined) throw admissionForbidden(a, refused);
  }

  async function admit(a: AdmissionAttributes): Promise<void> {
    const pod = podOf(a);
    if (pod === undefined || a.operation !== "CREATE") return;
    // A mirror pod's spec must stay as its static manifest says, or the kubelet deletes it at once.
    if (isMirrorPod(pod)) return validate(a);
    const spec = asObject(pod.spec);
    if (spec === undefined) return;
    const name = accountName(spec) || defaultServiceAccount;
    // kube's v1 pods always show the deprecated field equal to the name.
    spec.serviceAccountName = name;
    spec.serviceAccount = name;
    const serviceAccount = await serviceAccountOf(a, name);
    if (shouldAutomount(serviceAccount, spec)) mountServiceAccountToken(pod);
    const pullSecrets = listItems(serviceAccount.imagePullSecrets);
    if (listItems(spec.imagePullSecrets).length === 0 && pullSecrets.length > 0) {
      spec.imagePullSecrets = pullSecrets.map((ref) => ({ name: asObject(ref)?.name }));
    }
    return validate(a);
  }

  return { name: "ServiceAccount", mutate: admit, validate };
}
