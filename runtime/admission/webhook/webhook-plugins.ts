// The MutatingAdmissionWebhook and ValidatingAdmissionWebhook admission plugins: on each write, the webhooks
// of the Mutating- or ValidatingWebhookConfigurations in force (read from the API, so a change applies at
// once) that match the request are called, as kube-apiserver calls them. Writes of admission's own
// configuration kinds are never sent to webhooks. The plugin's configuration (a WebhookAdmissionConfiguration)
// gives the credentials to call webhook hosts with; a bad one throws kube's startup error.
import { celAuthorizer } from "../../authz/cel-authorizer.js";
import { serviceEndpointResolver } from "../../http/service-resolver.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission.js";
import type { AdmissionPluginContext } from "../plugin-context.js";
import { admissionPolicyEnvironment } from "../policy/policy-environment.js";
import type { CompiledConditions } from "./match-conditions.js";
import { dispatchMutating, mutatingPluginName } from "./mutating-dispatcher.js";
import { dispatchValidating } from "./validating-dispatcher.js";
import { listWebhooks, type Webhook, type WebhookType } from "./webhook-configurations.js";
import { credentialsResolver } from "./webhook-credentials.js";
import { RequestMatcher } from "./webhook-matcher.js";
import { isExemptConfigurationKind } from "./webhook-rules.js";
import type { TransportOptions } from "./webhook-transport.js";

interface WebhookSource {
  transport: TransportOptions;
  /** The webhooks in force, none when the server does not serve admissionregistration.k8s.io/v1. */
  webhooks(): Promise<Webhook[]>;
  matcher(a: AdmissionAttributes): RequestMatcher;
}

function webhookSource(context: AdmissionPluginContext, type: WebhookType): WebhookSource {
  const credentials = credentialsResolver(context.config);
  const api = context.resources;
  const compiled = new Map<string, CompiledConditions>();
  const matcherOptions = {
    api,
    environment: admissionPolicyEnvironment,
    authorizer: celAuthorizer(context.authorizer),
  };
  return {
    transport: { credentials, resolveService: serviceEndpointResolver(api) },
    async webhooks() {
      if (!api.kinds.servesBuiltin("admissionregistration.k8s.io", "v1")) return [];
      const webhooks = await listWebhooks(api, type);
      // Conditions compiled for configurations that are gone or changed are dropped.
      const live = new Set(webhooks.map((w) => `${w.generation}/${w.uid}`));
      for (const key of compiled.keys()) if (!live.has(key)) compiled.delete(key);
      return webhooks;
    },
    matcher: (a) => new RequestMatcher(matcherOptions, compiled, a),
  };
}

function exempt(a: AdmissionAttributes): boolean {
  return isExemptConfigurationKind(a.kind.group, a.kind.kind);
}

export function mutatingAdmissionWebhook(context: AdmissionPluginContext): AdmissionPlugin {
  const source = webhookSource(context, "mutating");
  return {
    name: mutatingPluginName,
    async mutate(a) {
      if (exempt(a)) return;
      const webhooks = await source.webhooks();
      if (webhooks.length === 0) return;
      await dispatchMutating(webhooks, a, {
        matcher: source.matcher(a),
        transport: source.transport,
        metrics: context.metrics,
      });
    },
  };
}

export function validatingAdmissionWebhook(context: AdmissionPluginContext): AdmissionPlugin {
  const source = webhookSource(context, "validating");
  return {
    name: "ValidatingAdmissionWebhook",
    async validate(a) {
      if (exempt(a)) return;
      const webhooks = await source.webhooks();
      if (webhooks.length === 0) return;
      await dispatchValidating(webhooks, a, {
        matcher: source.matcher(a),
        transport: source.transport,
        metrics: context.metrics,
      });
    },
  };
}
