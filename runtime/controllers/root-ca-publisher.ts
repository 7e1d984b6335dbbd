// kube's root CA certificate publisher: every namespace has a ConfigMap `kube-root-ca.crt` whose `ca.crt`
// holds the CA that signed the server's certificate, with kube's description annotation. A deleted one is
// created again; a changed one gets its data and annotation back (other fields are left alone).
import { isDeepStrictEqual } from "node:util";
import { namespaceTerminatingCause } from "../admission/namespace-lifecycle.js";
import type { ResourceApi } from "../resources/resource-api.js";
import { activeNamespace } from "./active-namespace.js";
import { hasStatusCause, statusCode, statusReason } from "./api-errors.js";
import type { ControllerContext } from "./controller-context.js";
import { configMaps, namespaces } from "./core-kinds.js";
import { followObjects } from "./follow-objects.js";
import { updateWithRetry } from "./update-with-retry.js";
import { WorkQueue } from "./work-queue.js";

const rootCaConfigMap = "kube-root-ca.crt";
const descriptionAnnotation = "kubernetes.io/description";
const rootCaDescription =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. " +
  "No other usage is guaranteed across distributions of Kubernetes clusters.";

interface ConfigMapShape {
  metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
  status?: { phase?: string };
}

export class RootCaPublisher {
  private readonly queue: WorkQueue<string>;

  constructor(
    private readonly api: ResourceApi,
    private readonly caCert: string,
    private readonly options: ControllerContext,
  ) {
    this.queue = new WorkQueue((namespace) => this.sync(namespace), {
      name: "root CA certificate publisher",
      log: options.log,
    });
  }

  async run(): Promise<void> {
    const follow = { ...this.options, name: "root CA certificate publisher" };
    await Promise.all([
      followObjects(
        this.api,
        { kind: namespaces },
        (event) => {
          const ns = event.object as ConfigMapShape;
          if (event.type === "ADDED" || (event.type === "MODIFIED" && ns.status?.phase !== "Terminating")) {
            this.queue.add(String(ns.metadata?.name));
          }
        },
        follow,
      ),
      followObjects(
        this.api,
        { kind: configMaps },
        (event) => {
          if (event.type !== "ADDED") this.queue.add(String((event.object as ConfigMapShape).metadata?.namespace));
        },
        { ...follow, query: { fieldSelector: `metadata.name=${rootCaConfigMap}` } },
      ),
    ]);
    await this.queue.stop();
  }

  private async sync(namespace: string): Promise<undefined> {
    const data = { "ca.crt": this.caCert };
    const target = { kind: configMaps, namespace, name: rootCaConfigMap };
    let exists = true;
    try {
      await this.api.get(target);
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
      exists = false;
    }
    if (!exists) {
      if (!(await activeNamespace(this.api, namespace))) return undefined;
      try {
        await this.api.create(
          { kind: configMaps, namespace },
          {
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { name: rootCaConfigMap, namespace, annotations: { [descriptionAnnotation]: rootCaDescription } },
            data,
          },
        );
      } catch (error) {
        const ignored =
          statusCode(error) === 404 ||
          statusReason(error) === "AlreadyExists" ||
          hasStatusCause(error, namespaceTerminatingCause);
        if (!ignored) throw error;
      }
      return undefined;
    }
    await updateWithRetry(this.api, target, (obj) => {
      const cm = obj as ConfigMapShape;
      const annotations = cm.metadata?.annotations ?? {};
      if (isDeepStrictEqual(cm.data, data) && (annotations[descriptionAnnotation] ?? "") !== "") return false;
      cm.data = { ...data };
      cm.metadata = { ...cm.metadata, annotations: { ...annotations, [descriptionAnnotation]: rootCaDescription } };
      return true;
    });
    return undefined;
  }
}
