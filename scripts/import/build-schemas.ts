// Turns upstream release data into kapi schema files: definitions without prose, kinds with their
// REST mapping from discovery, protobuf numbers from generated.proto.
import { createHash } from "node:crypto";
import type {
  KindEntry,
  ProtoWireField,
  ResourceMapping,
  SchemaFile,
  SchemaNode,
  Subresource,
  Verb,
} from "../../generator/schema/model.js";
import { deriveProtoType, type ProtoFieldType } from "../../generator/schema/proto-type.js";
import {
  groupDir,
  type PackageTarget,
  protoOnlyPackages,
  targetOfOpenApiPrefix,
  targetOfProtoPackage,
} from "./package-map.js";
import type { DiscoveryResource, OpenApiSchema, ProtoField, ProtoMessage, UpstreamData } from "./upstream-data.js";

export interface ImportResult {
  files: Map<string, SchemaFile>;
  /** Things the importer could not map; printed by the CLI and kept short on purpose. */
  report: string[];
}

interface FileBuild {
  target: PackageTarget;
  file: SchemaFile;
}

const componentPrefix = "#/components/schemas/";

function splitName(full: string): { prefix: string; name: string } {
  const i = full.lastIndexOf(".");
  return { prefix: full.slice(0, i), name: full.slice(i + 1) };
}

function stabilityOf(version: string): "alpha" | "beta" | "stable" {
  if (version.includes("alpha")) return "alpha";
  if (version.includes("beta")) return "beta";
  return "stable";
}

/** kube-apiserver's storage version hash: the first 8 bytes of sha256("group/version/kind"). */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash("sha256").update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString("base64");
}

export class SchemaImporter {
  private readonly files = new Map<string, FileBuild>();
  private readonly report: string[] = [];
  /** fileId/name of definitions made from protobuf messages rather than OpenAPI definitions */
  private readonly synthesized = new Set<string>();

  constructor(private readonly upstream: UpstreamData) {}

  run(): ImportResult {
    this.importDefinitions();
    this.importProtoOnlyPackages();
    this.importKinds();
    this.importMessagesWithoutDefinitions();
    this.numberFields();
    const files = new Map<string, SchemaFile>();
    for (const [id, build] of [...this.files].sort(([a], [b]) => a.localeCompare(b))) files.set(id, build.file);
    return { files, report: this.report };
  }

  private fileFor(target: PackageTarget): FileBuild {
    let build = this.files.get(target.fileId);
    if (!build) {
      const file: SchemaFile = { openapi: { prefix: target.openapiPrefix }, definitions: {} };
      if (target.group !== undefined && target.version) {
        file.group = target.group;
        file.version = target.version;
        file.stability = stabilityOf(target.version);
        file.enabledByDefault = file.stability === "stable";
      }
      if (target.protoPackage) file.protobuf = { package: target.protoPackage };
      build = { target, file };
      this.files.set(target.fileId, build);
    }
    return build;
  }

  private refTo(fromFileId: string, full: string): string {
    const { prefix, name } = splitName(full);
    const target = targetOfOpenApiPrefix(prefix);
    return target.fileId === fromFileId ? `#/definitions/${name}` : `../${target.fileId}.yaml#/definitions/${name}`;
  }

  private convert(fileId: string, schema: OpenApiSchema): SchemaNode {
    const out: Record<string, unknown> = {};
    const allOf = schema.allOf as OpenApiSchema[] | undefined;
    if (allOf && allOf.length === 1 && typeof allOf[0]?.$ref === "string") {
      out.$ref = this.refTo(fileId, (allOf[0].$ref as string).slice(componentPrefix.length));
    }
    for (const [key, value] of Object.entries(schema)) {
      switch (key) {
        case "description":
        case "allOf":
        case "x-kubernetes-group-version-kind":
          break;
        case "$ref":
          out.$ref = this.refTo(fileId, (value as string).slice(componentPrefix.length));
          break;
        case "properties":
          out.properties = Object.fromEntries(
            Object.entries(value as Record<string, OpenApiSchema>).map(([k, v]) => [k, this.convert(fileId, v)]),
          );
          break;
        case "items":
          out.items = this.convert(fileId, value as OpenApiSchema);
          break;
        case "additionalProperties":
          out.additionalProperties = typeof value === "boolean" ? value : this.convert(fileId, value as OpenApiSchema);
          break;
        case "oneOf":
        case "anyOf":
          out[key] = (value as OpenApiSchema[]).map((v) => this.convert(fileId, v));
          break;
        default:
          out[key] = value;
      }
    }
    return out as SchemaNode;
  }

  private importDefinitions(): void {
    for (const [full, schema] of [...this.upstream.definitions].sort(([a], [b]) => a.localeCompare(b))) {
      const { prefix, name } = splitName(full);
      const target = targetOfOpenApiPrefix(prefix);
      const build = this.fileFor(target);
      build.file.definitions[name] = this.convert(target.fileId, schema);
    }
  }

  /** Kinds that exist only as protobuf messages (AdmissionReview, ImageReview, discovery v2). */
  private importProtoOnlyPackages(): void {
    for (const pkg of protoOnlyPackages) {
      const messages = this.upstream.proto.get(pkg);
      if (!messages) {
        this.report.push(`${pkg}: not in upstream generated.proto`);
        continue;
      }
      const target = targetOfProtoPackage(pkg);
      const build = this.fileFor(target);
      for (const message of messages.values()) {
        build.file.definitions[message.name] = this.schemaFromProto(target.fileId, message);
      }
      // Top-level messages with ObjectMeta or a request/response pair are the group's kinds.
      build.file.kinds = [...messages.values()]
        .filter((m) => this.isProtoKind(m))
        .map((m) => this.kindEntry(m.name, messages.has(`${m.name}List`)));
    }
  }

  /** Option and helper messages (ListOptions, PodLogOptions, …) that the OpenAPI documents leave out. */
  private importMessagesWithoutDefinitions(): void {
    for (const build of this.files.values()) {
      const pkg = build.file.protobuf?.package;
      const messages = pkg ? this.upstream.proto.get(pkg) : undefined;
      if (!messages || protoOnlyPackages.includes(pkg ?? "")) continue;
      for (const message of messages.values()) {
        if (build.file.definitions[message.name]) continue;
        build.file.definitions[message.name] = this.schemaFromProto(build.target.fileId, message);
        this.synthesized.add(`${build.target.fileId}/${message.name}`);
      }
      build.file.definitions = Object.fromEntries(
        Object.entries(build.file.definitions).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }

  private isProtoKind(message: ProtoMessage): boolean {
    if (message.name.endsWith("List")) return false;
    return message.fields.some(
      (f) =>
        f.type === "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta" ||
        (message.name.endsWith("Review") && (f.name === "request" || f.name === "spec")),
    );
  }

  private schemaFromProto(fileId: string, message: ProtoMessage): SchemaNode {
    const properties: Record<string, SchemaNode> = {};
    for (const field of message.fields) {
      const element = this.openApiOfProtoType(fileId, field.type);
      let node: SchemaNode;
      if (field.mapKey) node = { type: "object", additionalProperties: element };
      else if (field.repeated) node = { type: "array", items: element };
      else node = element;
      properties[field.name] = { ...node, "x-kapi-proto": field.number };
    }
    return { type: "object", properties };
  }

  private openApiOfProtoType(fileId: string, type: string): SchemaNode {
    switch (type) {
      case "string":
        return { type: "string" };
      case "bytes":
        return { type: "string", format: "byte" };
      case "bool":
        return { type: "boolean" };
      case "int32":
        return { type: "integer", format: "int32" };
      case "int64":
        return { type: "integer", format: "int64" };
      case "double":
        return { type: "number", format: "double" };
      default: {
        const { prefix, name } = splitName(type);
        return { $ref: this.refTo(fileId, `${openapiPrefixOfProtoPackage(prefix)}.${name}`) };
      }
    }
  }

  private kindEntry(kind: string, hasList: boolean): KindEntry {
    const entry: KindEntry = { kind };
    if (hasList) entry.listKind = `${kind}List`;
    return entry;
  }

  private importKinds(): void {
    // Kinds from the x-kubernetes-group-version-kind markers; a definition registered in several
    // groups (DeleteOptions, WatchEvent) is a meta kind and stays in its own file without a mapping.
    for (const [full, schema] of this.upstream.definitions) {
      const gvks = schema["x-kubernetes-group-version-kind"] as
        | { group: string; version: string; kind: string }[]
        | undefined;
      if (!gvks || gvks.length === 0) continue;
      const { prefix, name } = splitName(full);
      const build = this.fileFor(targetOfOpenApiPrefix(prefix));
      if (name.endsWith("List") && def(build, name)?.properties?.items && build.file.definitions[name.slice(0, -4)]) {
        continue;
      }
      build.file.kinds ??= [];
      const kinds = build.file.kinds;
      if (kinds.some((k) => k.kind === name)) continue;
      const list = build.file.definitions[`${name}List`];
      kinds.push(this.kindEntry(name, list?.properties?.items !== undefined));
    }
    for (const version of this.upstream.discovery) {
      const fileId = `${groupDir(version.group)}/${version.version}`;
      const build = this.files.get(fileId);
      if (!build) {
        this.report.push(`${fileId}: served upstream but has no definitions`);
        continue;
      }
      build.file.priority = { group: version.groupPriority, version: version.versionPriority };
      for (const resource of version.resources) {
        const entry = build.file.kinds?.find((k) => k.kind === resource.responseKind.kind);
        if (!entry) {
          this.report.push(
            `${fileId}: resource ${resource.resource} serves unknown kind ${resource.responseKind.kind}`,
          );
          continue;
        }
        if (entry.resource) {
          this.report.push(`${fileId}: kind ${entry.kind} served by ${entry.resource.plural} and ${resource.resource}`);
          continue;
        }
        entry.resource = this.mapping(version.group, version.version, resource, version.storageVersionHash);
      }
    }
    for (const build of this.files.values()) {
      build.file.kinds?.sort((a, b) => a.kind.localeCompare(b.kind));
    }
  }

  private mapping(
    group: string,
    version: string,
    resource: DiscoveryResource,
    hashes: Map<string, string>,
  ): ResourceMapping {
    const mapping: ResourceMapping = {
      plural: resource.resource,
      singular: resource.singularResource,
      scope: resource.scope,
      nameFormat: "dns-subdomain",
      verbs: [...resource.verbs].sort() as Verb[],
    };
    if (resource.shortNames?.length) mapping.shortNames = resource.shortNames;
    if (resource.categories?.length) mapping.categories = resource.categories;
    if (resource.subresources?.length) {
      mapping.subresources = resource.subresources.map((s) => {
        const sub: Subresource = { name: s.subresource, verbs: [...s.verbs].sort() as Verb[] };
        const rk = s.responseKind;
        if (rk && rk.kind !== resource.responseKind.kind) {
          sub.kind = { group: rk.version ? rk.group : group, version: rk.version || version, kind: rk.kind };
        }
        if (s.subresource === "scale") {
          sub.scale = {
            specReplicasPath: ".spec.replicas",
            statusReplicasPath: ".status.replicas",
            labelSelectorPath: ".status.selector",
          };
        } else if (s.subresource !== "status") {
          sub.hook = s.subresource;
        }
        return sub;
      });
    }
    const hash = hashes.get(resource.resource);
    if (hash && hash === storageVersionHash(group, version, resource.responseKind.kind)) {
      mapping.storageVersion = true;
    }
    return mapping;
  }

  private messageOf(file: SchemaFile, name: string): ProtoMessage | undefined {
    return file.protobuf ? this.upstream.proto.get(file.protobuf.package)?.get(name) : undefined;
  }

  private refToMessage(fileId: string): (ref: string) => string {
    return (ref: string) => {
      const [path = "", pointer = ""] = ref.split("#");
      const targetId = path === "" ? fileId : path.replace(/^\.\.\//, "").replace(/\.yaml$/, "");
      const name = pointer.replace("/definitions/", "");
      const pkg = this.files.get(targetId)?.file.protobuf?.package ?? "?";
      return `${pkg}.${name}`;
    };
  }

  private numberFields(): void {
    for (const [fileId, build] of this.files) {
      const file = build.file;
      if (!file.protobuf) continue;
      const messages = this.upstream.proto.get(file.protobuf.package);
      if (!messages) {
        this.report.push(`${fileId}: no upstream generated.proto for ${file.protobuf.package}`);
        continue;
      }
      for (const [name, def] of Object.entries(file.definitions)) {
        const message = this.messageOf(file, name);
        if (!message) {
          this.report.push(`${fileId}: ${name} has no protobuf message`);
          continue;
        }
        if (!def.properties || Object.keys(def.properties).length === 0) {
          def["x-kapi-proto-message"] = message.fields.map(wireField);
          continue;
        }
        this.numberProperties(fileId, name, def, message);
      }
    }
  }

  private numberProperties(fileId: string, name: string, def: SchemaNode, message: ProtoMessage): void {
    const byName = new Map(message.fields.map((f) => [protoMatchKey(f.name), f]));
    const used = new Set<ProtoField>();
    const unnumbered = new Set<string>();
    for (const [prop, node] of Object.entries(def.properties ?? {})) {
      const field = byName.get(protoMatchKey(prop));
      if (!field) {
        // apiVersion and kind travel in the envelope's TypeMeta, never inside the message.
        if (prop !== "apiVersion" && prop !== "kind") unnumbered.add(prop);
        continue;
      }
      used.add(field);
      node["x-kapi-proto"] = field.number;
      if (field.name !== prop) node["x-kapi-proto-name"] = field.name;
      this.reconcileType(fileId, `${name}.${prop}`, node, field);
    }
    // A Go struct embedded inline in JSON is one nested message on the wire (Volume.volumeSource).
    for (const field of message.fields) {
      if (used.has(field) || field.repeated || field.mapKey) continue;
      const inlined = this.definitionOfMessage(field.type);
      if (!inlined?.def.properties) continue;
      const props = Object.keys(inlined.def.properties).filter((p) => unnumbered.has(p));
      if (props.length === 0) continue;
      for (const p of props) unnumbered.delete(p);
      used.add(field);
      def["x-kapi-proto-inline"] ??= [];
      def["x-kapi-proto-inline"].push({
        name: field.name,
        number: field.number,
        $ref: this.refToDefinition(fileId, inlined),
      });
    }
    for (const prop of unnumbered) this.report.push(`${fileId}: ${name}.${prop} has no protobuf field`);
    for (const field of message.fields) {
      if (!used.has(field)) this.report.push(`${fileId}: protobuf field ${name}.${field.name} has no property`);
    }
  }

  private definitionOfMessage(qualified: string): { fileId: string; name: string; def: SchemaNode } | undefined {
    const { prefix, name } = splitName(qualified);
    for (const [fileId, build] of this.files) {
      const def = build.file.definitions[name];
      if (build.file.protobuf?.package === prefix && def) return { fileId, name, def };
    }
    return undefined;
  }

  private refToDefinition(fromFileId: string, target: { fileId: string; name: string }): string {
    return target.fileId === fromFileId
      ? `#/definitions/${target.name}`
      : `../${target.fileId}.yaml#/definitions/${target.name}`;
  }

  private reconcileType(fileId: string, where: string, node: SchemaNode, field: ProtoField): void {
    const derived = deriveProtoType(node, this.refToMessage(fileId));
    const upstream: ProtoFieldType = { type: field.type, repeated: field.repeated };
    if (field.mapKey) upstream.mapKey = field.mapKey;
    if (
      derived &&
      derived.type === upstream.type &&
      derived.repeated === upstream.repeated &&
      derived.mapKey === upstream.mapKey
    ) {
      return;
    }
    const shapeMatches =
      (node.type === "array") === upstream.repeated &&
      (node.type === "object" && typeof node.additionalProperties === "object") === (upstream.mapKey !== undefined);
    if (shapeMatches) {
      node["x-kapi-proto-type"] = upstream.type;
      this.adoptWrapper(upstream.type);
      return;
    }
    // A Go named slice ([]string as ExtraValue) is one wire message holding `repeated items`.
    if (!upstream.repeated && !upstream.mapKey && node.type === "array") {
      node["x-kapi-proto-type"] = upstream.type;
      this.adoptWrapper(upstream.type);
      return;
    }
    this.report.push(
      `${fileId}: ${where} is ${JSON.stringify(derived)} but upstream protobuf has ${JSON.stringify(upstream)}`,
    );
  }

  /** Wrapper messages (ExtraValue) that only protobuf knows become definitions of their own. */
  private adoptWrapper(qualified: string): void {
    const { prefix, name } = splitName(qualified);
    const message = this.upstream.proto.get(prefix)?.get(name);
    if (!message) return;
    const build = this.fileFor(targetOfOpenApiPrefix(openapiPrefixOfProtoPackage(prefix)));
    if (build.file.definitions[name] && !this.synthesized.has(`${build.target.fileId}/${name}`)) return;
    const items = message.fields.find((f) => f.name === "items" && f.repeated);
    if (!items) return;
    build.file.definitions[name] = {
      type: "array",
      items: this.openApiOfProtoType(build.target.fileId, items.type),
      "x-kapi-proto-message": message.fields.map(wireField),
    };
  }
}

function def(build: FileBuild, name: string): SchemaNode | undefined {
  return build.file.definitions[name];
}

function openapiPrefixOfProtoPackage(pkg: string): string {
  return pkg.replace(/^k8s\.io\./, "io.k8s.").replace(/_/g, "-");
}

function wireField(f: ProtoField): ProtoWireField {
  const w: ProtoWireField = { name: f.name, number: f.number, type: f.type };
  if (f.repeated) w.repeated = true;
  return w;
}

/** generated.proto names fields after Go fields: `uID` for `uid`, `xKubernetesListType` for `x-kubernetes-list-type`. */
function protoMatchKey(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
}
