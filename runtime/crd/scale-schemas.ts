// The OpenAPI v3 definitions of autoscaling/v1 Scale, which the documents of custom resources with a scale
// subresource refer to: taken from a built-in document that already carries them (apps/v1's).
import type { Schema } from "../openapi/schema-refs.js";
import { readPackageJson } from "../package-files.js";

const names = [
  "io.k8s.api.autoscaling.v1.Scale",
  "io.k8s.api.autoscaling.v1.ScaleSpec",
  "io.k8s.api.autoscaling.v1.ScaleStatus",
];

let loaded: Promise<Record<string, Schema>> | undefined;

export function scaleSchemas(): Promise<Record<string, Schema>> {
  loaded ??= readPackageJson<{ components: { schemas: Record<string, Schema> } }>(
    "generated/openapi/v3/apis/apps/v1.json",
  ).then(({ components: { schemas } }) => Object.fromEntries(names.map((name) => [name, schemas[name] as Schema])));
  return loaded;
}
