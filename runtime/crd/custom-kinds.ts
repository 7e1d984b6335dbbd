// From a CustomResourceDefinition to what the server serves: one kind record per version (with the schema,
// defaults, pruning, field table and conversion the generated tables give built-in kinds), its discovery
// entry, and the OpenAPI definitions of the kind and its list.
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionVersion,
} from "../../generated/apiextensions.k8s.io/v1/types.js";
import type { JsonObject } from "../conversion/json-values.js";
import type { ServedResource, ServedSubresource } from "../discovery/served.js";
import { storageVersionHash } from "../discovery/storage-version-hash.js";
import type { ServiceEndpointResolver } from "../http/service-resolver.js";
import type { Schema } from "../openapi/schema-refs.js";
import type { PrinterColumn, SelectableField, SubresourceRecord, Verb } from "../registry/kind-record.js";
import type { CustomVersion } from "../registry/kind-registry.js";
import type { CustomKind, KindVersions, ServedKind } from "../registry/served-kind.js";
import type { Strategy } from "../registry/strategy.js";
import { compareKubeAwareVersions, stabilityOf } from "../registry/version-names.js";
import { customResourceConverter } from "./conversion/custom-resource-converter.js";
import { isConditionTrue } from "./names-acceptance.js";
import { toOpenApiV2Schema } from "./openapi-v2.js";
import { customResourceSchema } from "./schema/custom-resource-schema.js";

const verbs: readonly Verb[] = ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"];
const subresourceVerbs: readonly Verb[] = ["get", "patch", "update"];
const scaleKind = { group: "autoscaling", version: "v1", kind: "Scale" };
const objectMetaDefinition = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const listMetaDefinition = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";

/** kube shows a custom resource's age when its definition names no columns. */
const defaultColumns: readonly PrinterColumn[] = [
  { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
];

/**
 * Custom resources keep metadata.generation whether or not status is a subresource, and their metadata is
 * checked by apimachinery's rules (kube's customresource strategy); nothing else differs from the generic path.
 */
const customResourceStrategy: Strategy = { tracksGeneration: true, genericObjectMeta: true };

/** `com.example.stable.v1.CronTab`: the reversed group, the version and the kind, as kube names CRD definitions. */
export function definitionName(group: string, version: string, kind: string): string {
  return [...group.split(".").reverse(), version, kind].join(".");
}

function printerColumns(columns: readonly CustomResourceColumnDefinition[] | undefined): readonly PrinterColumn[] {
  if (columns === undefined || columns.length === 0) return defaultColumns;
  return columns.map((c) => ({
    name: c.name,
    type: c.type as PrinterColumn["type"],
    jsonPath: c.jsonPath,
    ...(c.format === undefined || c.format === "" ? {} : { format: c.format }),
    ...(c.priority === undefined ? {} : { priority: c.priority }),
    ...(c.description === undefined || c.description === "" ? {} : { description: c.description }),
  }));
}

function subresources(version: CustomResourceDefinitionVersion): SubresourceRecord[] {
  const out: SubresourceRecord[] = [];
  const sub = version.subresources;
  if (sub?.status !== undefined) out.push({ name: "status", verbs: subresourceVerbs });
  if (sub?.scale !== undefined) {
    const { specReplicasPath, statusReplicasPath, labelSelectorPath } = sub.scale;
    out.push({
      name: "scale",
      verbs: subresourceVerbs,
      kind: scaleKind,
      scale: { specReplicasPath, statusReplicasPath, ...(labelSelectorPath ? { labelSelectorPath } : {}) },
    });
  }
  return out;
}

function selectableFields(version: CustomResourceDefinitionVersion): SelectableField[] {
  return (version.selectableFields ?? []).map(({ jsonPath }) => ({
    label: jsonPath.replace(/^\./, ""),
    jsonPaths: [jsonPath],
  }));
}

/** The warning a request to a deprecated version gets: the definition's own text, else kube's default. */
function deprecationWarning(group: string, version: CustomResourceDefinitionVersion, kind: string): string | undefined {
  if (version.deprecated !== true) return undefined;
  return version.deprecationWarning ?? `${group}/${version.name} ${kind} is deprecated`;
}

export interface OpenApiDefinitions {
  v3: Record<string, Schema>;
  v2: Record<string, Schema>;
}

export interface CustomResource {
  /** Every version, served or not: objects may be stored in an unserved one. */
  kinds: ServedKind[];
  /** The served versions in discovery order. */
  served: CustomVersion[];
  /** OpenAPI definitions by group/version: the kind and its list, and the kind's form in v2. */
  openapi: Map<string, OpenApiDefinitions>;
}

/** What a definition with accepted `names` serves; its conversion webhook's service is reached through `resolveService`. */
export function customResource(
  crd: CustomResourceDefinition,
  names: CustomResourceDefinitionNames,
  resolveService: ServiceEndpointResolver,
): CustomResource {
  const { group, versions } = crd.spec;
  const meta = crd.metadata ?? {};
  const definition = { name: meta.name ?? "", uid: meta.uid ?? "" };
  const converter = customResourceConverter(crd as unknown as JsonObject, { resolveService });
  const storageName = versions.find((v) => v.storage)?.name ?? versions[0]?.name ?? "";
  const listKind = names.listKind ?? `${names.kind}List`;
  const byVersion = new Map<string, ServedKind>();
  const storage = (): ServedKind => byVersion.get(storageName) as ServedKind;
  const terminating = isConditionTrue(crd, "Terminating");

  for (const version of versions) {
    const schema = customResourceSchema((version.schema?.openAPIV3Schema ?? { type: "object" }) as JsonObject);
    const warning = deprecationWarning(group, version, names.kind);
    const custom: CustomKind = {
      definition,
      validate: (obj, old) => schema.validate(obj, old),
      ratchets: true,
      default: (obj) => schema.default(obj),
      prune: (obj) => schema.prune(obj),
      ...(schema.celSchema === undefined ? {} : { celSchema: schema.celSchema }),
      fields: schema.fields,
      storage,
      ...(warning === undefined ? {} : { deprecationWarning: warning }),
      ...(terminating ? { terminating } : {}),
    };
    const record: Omit<ServedKind, "custom" | "schema" | "versions"> = {
      group,
      version: version.name,
      kind: names.kind,
      listKind,
      stability: stabilityOf(version.name),
      enabledByDefault: true,
      resource: {
        plural: names.plural,
        singular: names.singular ?? names.kind.toLowerCase(),
        scope: crd.spec.scope === "Cluster" ? "Cluster" : "Namespaced",
        nameFormat: "dns-subdomain",
        verbs,
        shortNames: names.shortNames ?? [],
        categories: names.categories ?? [],
        subresources: subresources(version),
        storageVersion: version.name === storageName,
        virtual: false,
        printerColumns: printerColumns(version.additionalPrinterColumns),
        selectableFields: selectableFields(version),
      },
      strategy: customResourceStrategy,
    };
    const kindVersions: KindVersions = {
      // Different for every build of the kind: views of stored objects made for an earlier one are not reused.
      viewKey: `${definition.uid}/${crd.metadata?.generation ?? 0}`,
      convert: (objects, to) => converter.convert(objects, to),
      ...(converter.convertSync === undefined ? {} : { convertSync: converter.convertSync.bind(converter) }),
      finishRead: (obj) => schema.default(obj),
    };
    byVersion.set(version.name, { ...record, schema: custom, versions: kindVersions, custom } as ServedKind);
  }

  const servedVersions = versions
    .filter((v) => v.served)
    .map((v) => v.name)
    .sort(compareKubeAwareVersions);
  const hash = storageVersionHash(group, storageName, names.kind);
  const served: CustomVersion[] = servedVersions.map((name, i) => {
    const kind = byVersion.get(name) as ServedKind;
    return { kind, served: servedResource(kind, names, hash), versionPriority: i };
  });
  const openapi = new Map<string, OpenApiDefinitions>();
  for (const version of versions.filter((v) => v.served)) {
    openapi.set(`${group}/${version.name}`, openApiDefinitions(group, version, names, listKind));
  }
  return { kinds: [...byVersion.values()], served, openapi };
}

function servedResource(kind: ServedKind, names: CustomResourceDefinitionNames, hash: string): ServedResource {
  const subs: ServedSubresource[] = kind.resource.subresources.map((s) => ({
    name: s.name,
    verbs: [...s.verbs],
    ...(s.kind === undefined ? {} : { kind: s.kind, definition: "io.k8s.api.autoscaling.v1.Scale" }),
  }));
  return {
    plural: kind.resource.plural,
    singular: kind.resource.singular,
    kind: kind.kind,
    namespaced: kind.resource.scope === "Namespaced",
    verbs: [...kind.resource.verbs],
    ...(names.shortNames?.length ? { shortNames: [...names.shortNames] } : {}),
    ...(names.categories?.length ? { categories: [...names.categories] } : {}),
    ...(subs.length > 0 ? { subresources: subs } : {}),
    storageVersionHash: hash,
    custom: true,
    definition: definitionName(kind.group, kind.version, kind.kind),
    listDefinition: definitionName(kind.group, kind.version, kind.listKind ?? `${kind.kind}List`),
  };
}

// TypeMeta's and the metadata fields' descriptions as kube-apiserver publishes them for every custom kind
// (`kubectl explain` prints them).
const typeMeta: Record<string, Schema> = {
  apiVersion: {
    description:
      "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
    type: "string",
  },
  kind: {
    description:
      "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
    type: "string",
  },
};
const objectMetadataDescription =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const listMetadataDescription =
  "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/** A described reference, written as OpenAPI v3 documents write one (`allOf` around the `$ref`). */
function described(definition: string, description: string): Schema {
  return { description, allOf: [{ $ref: `#/components/schemas/${definition}` }] };
}

/** The kind's schema with apiVersion, kind and metadata as kube publishes them, and its list. */
function openApiDefinitions(
  group: string,
  version: CustomResourceDefinitionVersion,
  names: CustomResourceDefinitionNames,
  listKind: string,
): OpenApiDefinitions {
  const { kind } = names;
  const gvk = (k: string) => [{ group, version: version.name, kind: k }];
  const base = (version.schema?.openAPIV3Schema ?? {}) as Schema;
  const properties = (base.properties ?? {}) as Record<string, Schema>;
  const object: Schema = {
    ...base,
    type: "object",
    properties: { ...properties, ...typeMeta, metadata: described(objectMetaDefinition, objectMetadataDescription) },
    "x-kubernetes-group-version-kind": gvk(kind),
  };
  const list: Schema = {
    description: `${kind}List is a list of ${kind}`,
    type: "object",
    required: ["items"],
    properties: {
      ...typeMeta,
      items: {
        description: `List of ${names.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: "array",
        items: { $ref: `#/components/schemas/${definitionName(group, version.name, kind)}` },
      },
      metadata: described(listMetaDefinition, listMetadataDescription),
    },
    "x-kubernetes-group-version-kind": gvk(listKind),
  };
  // v2 as kube publishes it: a root that keeps unknown fields is a bare object there; a reference carries
  // no description.
  const v2Object: Schema =
    base["x-kubernetes-preserve-unknown-fields"] === true
      ? { type: "object", "x-kubernetes-group-version-kind": gvk(kind) }
      : toOpenApiV2Schema({
          ...object,
          properties: {
            ...properties,
            ...typeMeta,
            metadata: { $ref: `#/components/schemas/${objectMetaDefinition}` },
          },
        });
  const name = definitionName(group, version.name, kind);
  return {
    v3: { [name]: object, [definitionName(group, version.name, listKind)]: list },
    v2: { [name]: v2Object },
  };
}
