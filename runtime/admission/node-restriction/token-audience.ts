// ServiceAccountNodeAudienceRestriction (on by default in v1.36): a node may request a service account token
// for an audience only when a pod it runs asks for that audience (a projected token volume, or the CSI
// driver of one of its volumes lists it among its token requests), or when the authorizer lets it
// `request-serviceaccounts-token-audience` for that audience.
import type { Authorizer } from "../../access/authorizer.js";
import type { UserInfo } from "../../access/user-info.js";
import type { KubeObject } from "../../object/kube-object.js";
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { asObject, type JsonObject, listItems } from "../../validation/walk.js";

const persistentVolumeClaims = builtinKind("", "v1", "persistentvolumeclaims");
const persistentVolumes = builtinKind("", "v1", "persistentvolumes");
const csiDrivers = builtinKind("storage.k8s.io", "v1", "csidrivers");

/** csi-translation-lib's in-tree plugins: the volume source each migrates, and its CSI driver. */
const migratedDrivers: [string, string][] = [
  ["gcePersistentDisk", "pd.csi.storage.gke.io"],
  ["awsElasticBlockStore", "ebs.csi.aws.com"],
  ["cinder", "cinder.csi.openstack.org"],
  ["azureDisk", "disk.csi.azure.com"],
  ["azureFile", "file.csi.azure.com"],
  ["vsphereVolume", "csi.vsphere.vmware.com"],
  ["portworxVolume", "pxd.portworx.com"],
];

function migratedDriver(source: JsonObject): string | undefined {
  return migratedDrivers.find(([field]) => asObject(source[field]) !== undefined)?.[1];
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export class TokenAudienceCheck {
  constructor(
    private readonly api: ResourceApi,
    private readonly authorizer: () => Authorizer,
  ) {}

  private async read(kind: typeof csiDrivers, name: string, namespace?: string): Promise<KubeObject> {
    const target = namespace === undefined ? { kind, name } : { kind, namespace, name };
    return (await this.api.get(target, { resourceVersion: "0" })).object;
  }

  /** The CSI driver behind a claim: its volume's `csi.driver`, or the driver its in-tree source migrates to. */
  private async claimDriver(namespace: string, claimName: string): Promise<string> {
    const claim = await this.read(persistentVolumeClaims, claimName, namespace);
    const volumeName = str(asObject(claim.spec)?.volumeName);
    const volume = await this.read(persistentVolumes, volumeName);
    const spec = asObject(volume.spec) ?? {};
    const csi = asObject(spec.csi);
    if (csi !== undefined) return str(csi.driver);
    return migratedDriver(spec) ?? "";
  }

  private async driverHasAudience(driverName: string, audience: string): Promise<boolean> {
    const driver = await this.read(csiDrivers, driverName);
    return listItems(asObject(driver.spec)?.tokenRequests).some((r) => asObject(r)?.audience === audience);
  }

  /** podReferencesAudience: whether the pod asks for the audience; errors met on the way are collected. */
  private async podReferences(pod: KubeObject, audience: string): Promise<{ found: boolean; errors: string[] }> {
    const errors: string[] = [];
    const namespace = str(asObject(pod.metadata)?.namespace);
    const podName = str(asObject(pod.metadata)?.name);
    for (const item of listItems(asObject(pod.spec)?.volumes)) {
      const volume = asObject(item) ?? {};
      const sources = listItems(asObject(volume.projected)?.sources);
      if (sources.some((s) => asObject(asObject(s)?.serviceAccountToken)?.audience === audience)) {
        return { found: true, errors };
      }
      try {
        let driver = "";
        const ephemeral = asObject(volume.ephemeral);
        const claim = asObject(volume.persistentVolumeClaim);
        if (ephemeral !== undefined && asObject(ephemeral.volumeClaimTemplate) !== undefined) {
          driver = await this.claimDriver(namespace, `${podName}-${str(volume.name)}`);
        } else if (claim !== undefined) {
          driver = await this.claimDriver(namespace, str(claim.claimName));
        } else if (asObject(volume.csi) !== undefined) {
          driver = str(asObject(volume.csi)?.driver);
        } else {
          driver = migratedDriver(volume) ?? "";
        }
        if (driver !== "" && (await this.driverHasAudience(driver, audience))) return { found: true, errors };
      } catch (error) {
        errors.push((error as Error).message);
      }
    }
    return { found: false, errors };
  }

  /** Why the node may not have a token for the request's audience; undefined when it may. */
  async refusal(
    user: UserInfo,
    tokenRequest: KubeObject,
    pod: KubeObject,
    namespace: string,
    serviceAccount: string,
  ): Promise<string | undefined> {
    const audiences = listItems(asObject(tokenRequest.spec)?.audiences).map(str);
    if (audiences.length > 1) return "node may only request 0 or 1 audiences";
    const audience = audiences[0] ?? "";
    const { found, errors } = await this.podReferences(pod, audience);
    if (found) return undefined;
    if (errors.length > 0) {
      const aggregate = errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`;
      return `error validating audience "${audience}": ${aggregate}`;
    }
    const decision = await this.authorizer().authorize({
      user,
      verb: "request-serviceaccounts-token-audience",
      resourceRequest: true,
      apiGroup: "",
      apiVersion: "v1",
      resource: audience,
      subresource: "",
      namespace,
      name: serviceAccount,
      path: "",
    });
    if (decision.decision === "allow") return undefined;
    if (decision.error !== undefined) {
      return `audience "${audience}" not found in pod spec volume, error authorizing ${user.name} to request tokens for this audience: ${decision.error}`;
    }
    return `audience "${audience}" not found in pod spec volume, ${user.name} is not authorized to request tokens for this audience`;
  }
}
