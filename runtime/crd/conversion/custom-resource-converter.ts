// Converting custom resources between the versions of their CustomResourceDefinition, as kube's CR
// converter does: the target and every object's version must be versions the CRD declares, objects already
// in the target version are left alone, and the rest are converted by the CRD's strategy: `None` rewrites
// apiVersion only, `Webhook` asks the CRD's conversion webhook (webhook-converter.ts). Failures are 500s
// worded as kube's converter errors (conversion-failure.ts).

import { internal } from "../../errors/status-error.js";
import type { ServiceEndpointResolver } from "../../http/service-resolver.js";
import { isJsonObject, type JsonObject } from "../../object/json-object.js";
import type { KubeObject } from "../../object/kube-object.js";
import { conversionFailure } from "./conversion-failure.js";
import { groupVersionText, objectKind, withApiVersion } from "./object-version.js";
import { convertThroughWebhook, type WebhookConversion } from "./webhook-converter.js";
import { webhookEndpoint } from "./webhook-endpoint.js";

export interface CustomResourceConverter {
  /** Objects of the CRD's group (any version it declares) converted to `version` of that group; order kept. */
  convert(objects: KubeObject[], version: string): Promise<KubeObject[]>;
  /** Present for strategy None: only apiVersion rewritten (objects already at `version` returned as copies). */
  convertSync?(obj: KubeObject, version: string): KubeObject;
}

export interface ConverterOptions {
  /** Where a clientConfig `service` is reached (the server's resolver over its Services and EndpointSlices). */
  resolveService: ServiceEndpointResolver;
  /** How long a webhook call may take in all (kube's 30 s by default). */
  timeoutMs?: number;
}

const defaultTimeoutMs = 30_000;

function object(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

interface Definition {
  name: string;
  group: string;
  versions: Set<string>;
  listKind: string;
}

function definitionOf(crd: JsonObject): Definition {
  const spec = object(crd.spec);
  const names = object(spec.names);
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  return {
    name: text(object(crd.metadata).name),
    group: text(spec.group),
    versions: new Set(versions.map((v) => text(object(v).name))),
    listKind: text(names.listKind) || `${text(names.kind)}List`,
  };
}

/** kube's refusal of a target or source version the CRD does not declare. */
function checkVersions(definition: Definition, objects: readonly KubeObject[], version: string): void {
  const declared = (gv: { group: string; version: string }) =>
    gv.group === definition.group && definition.versions.has(gv.version);
  const target = { group: definition.group, version };
  if (!declared(target)) {
    throw conversionFailure(`request to convert CR to an invalid group/version: ${groupVersionText(target)}`);
  }
  const [first] = objects;
  if (objects.length === 1 && first !== undefined && !declared(objectKind(first))) {
    throw conversionFailure(
      `request to convert CR from an invalid group/version: ${groupVersionText(objectKind(first))}`,
    );
  }
  objects.forEach((obj, i) => {
    const gv = objectKind(obj);
    if (!declared(gv)) {
      throw conversionFailure(
        `request to convert CR list failed, list index ${i} has invalid group/version: ${groupVersionText(gv)}`,
      );
    }
  });
}

function webhookConversion(definition: Definition, spec: JsonObject, options: ConverterOptions): WebhookConversion {
  const webhook = object(object(spec.conversion).webhook);
  const reviewVersions = Array.isArray(webhook.conversionReviewVersions) ? webhook.conversionReviewVersions : [];
  try {
    return {
      endpoint: webhookEndpoint(webhook.clientConfig),
      resolveService: options.resolveService,
      conversionReviewVersions: reviewVersions.map(text),
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      listKind: definition.listKind,
    };
  } catch (error) {
    throw internal(`conversion webhook for CRD ${definition.name}: ${(error as Error).message}`);
  }
}

export function customResourceConverter(crd: JsonObject, options: ConverterOptions): CustomResourceConverter {
  const definition = definitionOf(crd);
  const spec = object(crd.spec);
  const strategy = text(object(spec.conversion).strategy) || "None";
  const target = (version: string) => ({ group: definition.group, version });

  if (strategy === "None") {
    const convertSync = (obj: KubeObject, version: string): KubeObject => {
      checkVersions(definition, [obj], version);
      return withApiVersion(obj, groupVersionText(target(version)));
    };
    return {
      convertSync,
      convert: async (objects, version) => {
        checkVersions(definition, objects, version);
        return objects.map((obj) => withApiVersion(obj, groupVersionText(target(version))));
      },
    };
  }
  if (strategy === "Webhook") {
    const webhook = webhookConversion(definition, spec, options);
    return {
      convert: async (objects, version) => {
        checkVersions(definition, objects, version);
        return convertThroughWebhook(webhook, objects, target(version));
      },
    };
  }
  throw internal(`unknown conversion strategy "${strategy}" for CRD ${definition.name}`);
}
