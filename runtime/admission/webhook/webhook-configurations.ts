import type { KubeObject } from "../../object/kube-object.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { LabelSelectorObject } from "../../selection/label-selector-object.js";
import { admissionRegistrationKind } from "../policy/policy-inputs.js";
import type { WebhookRule } from "./webhook-rules.js";

export type WebhookType = "mutating" | "validating";

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** Base64 PEM. */
  caBundle?: string;
}

/** admissionregistration.k8s.io/v1 MutatingWebhook / ValidatingWebhook, as stored (defaulted). */
export interface WebhookSpec {
  name: string;
  clientConfig?: WebhookClientConfig;
  rules?: WebhookRule[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: string;
  matchConditions?: { name?: string; expression?: string }[];
}

export interface Webhook {
  /** kube's webhook uid: `<configuration>/<webhook>/<n>`, n counting earlier webhooks of the same name. */
  uid: string;
  configurationName: string;
  /** Changes whenever the configuration does (compiled match conditions are kept per generation). */
  generation: string;
  spec: WebhookSpec;
}

const configurationKinds: Record<WebhookType, ServedKind> = {
  mutating: admissionRegistrationKind("MutatingWebhookConfiguration"),
  validating: admissionRegistrationKind("ValidatingWebhookConfiguration"),
};

type Configuration = KubeObject & {
  metadata: { name: string; uid?: string; resourceVersion?: string };
  webhooks?: WebhookSpec[];
};

/** Every webhook of the type, in the order kube calls them. */
export async function listWebhooks(api: ResourceApi, type: WebhookType): Promise<Webhook[]> {
  const listed = await api.list({ kind: configurationKinds[type] });
  const configurations = listed.items
    .map((item) => item.object as Configuration)
    .sort((x, y) => (x.metadata.name < y.metadata.name ? -1 : x.metadata.name > y.metadata.name ? 1 : 0));
  const webhooks: Webhook[] = [];
  for (const configuration of configurations) {
    const { name, uid = "", resourceVersion = "" } = configuration.metadata;
    const seen = new Map<string, number>();
    for (const spec of configuration.webhooks ?? []) {
      const n = seen.get(spec.name) ?? 0;
      seen.set(spec.name, n + 1);
      webhooks.push({
        uid: `${name}/${spec.name}/${n}`,
        configurationName: name,
        generation: `${uid}/${resourceVersion}`,
        spec,
      });
    }
  }
  return webhooks;
}
