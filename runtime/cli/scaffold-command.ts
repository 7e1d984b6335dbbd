// `kapi new-group <group>/<version> --kind <Kind>`: writes a starter schemas/<group>/<version>.yaml that
// `npm run generate` accepts as it is (docs/new-api-group.md), so a new API group starts from a working file.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { stabilityOf, versionNamePattern } from "../registry/version-names.js";

export const scaffoldUsage = `usage: kapi new-group <group>/<version> --kind <Kind> [--namespaced|--cluster] [--schemas-dir DIR]

  Writes a starter schemas/<group>/<version>.yaml (never overwrites one), then: edit it, npm run generate.
  <group>        a DNS subdomain with at least one dot (widgets.example.com)
  <version>      v<N>, v<N>alpha<M> or v<N>beta<M>
  --kind         the kind's name in CamelCase (Widget)
  --namespaced   objects live in namespaces (default); --cluster for cluster-scoped objects
  --schemas-dir  where schemas live (default: the schemas/ that npm run generate reads)
`;

const defaultSchemasDir = join(dirname(fileURLToPath(import.meta.url)), "../../schemas");

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;
const kindName = /^[A-Z][A-Za-z0-9]*$/;

interface ScaffoldRequest {
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
  schemasDir: string;
}

class UsageError extends Error {}

function parseArgs(args: string[]): ScaffoldRequest {
  let target: string | undefined;
  let kind: string | undefined;
  let scope: boolean | undefined;
  let schemasDir = defaultSchemasDir;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = arg.indexOf("=");
    const [name, inline] = arg.startsWith("--") && eq !== -1 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = args[++i];
      if (next === undefined || next.startsWith("--")) throw new UsageError(`${name} needs a value`);
      return next;
    };
    if (name === "--kind") kind = value();
    else if (name === "--schemas-dir") schemasDir = value();
    else if ((name === "--namespaced" || name === "--cluster") && inline === undefined) {
      const namespaced = name === "--namespaced";
      if (scope !== undefined && scope !== namespaced)
        throw new UsageError("--namespaced and --cluster exclude each other");
      scope = namespaced;
    } else if (name.startsWith("-")) throw new UsageError(`unknown flag ${name}`);
    else if (target === undefined) target = arg;
    else throw new UsageError(`unexpected argument ${arg}`);
  }
  if (target === undefined) throw new UsageError("missing <group>/<version>");
  if (kind === undefined) throw new UsageError("missing --kind");
  const slash = target.indexOf("/");
  const group = slash === -1 ? target : target.slice(0, slash);
  const version = slash === -1 ? "" : target.slice(slash + 1);
  if (!dnsSubdomain.test(group)) {
    throw new UsageError(`group ${JSON.stringify(group)} must be a lowercase DNS subdomain with at least one dot`);
  }
  if (!versionNamePattern.test(version)) {
    throw new UsageError(`version ${JSON.stringify(version)} must be v<N>, v<N>alpha<M> or v<N>beta<M>`);
  }
  if (!kindName.test(kind)) throw new UsageError(`kind ${JSON.stringify(kind)} must be CamelCase (Widget)`);
  return { group, version, kind, namespaced: scope ?? true, schemasDir };
}

/** English plural of a lowercase kind, the way kube's default RESTMapper guesses it. */
export function pluralOf(singular: string): string {
  if (/(s|x|z|ch|sh)$/.test(singular)) return `${singular}es`;
  if (/[^aeiou]y$/.test(singular)) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}

/** What the other files say that a new file must agree with: discovery priorities and storage versions. */
interface Neighbours {
  groupPriority: number;
  versionPriority: number;
  /** Another version of the group already stores this kind. */
  kindStored: boolean;
}

interface HeaderFacts {
  group?: string;
  priority?: { group?: number; version?: number };
  kinds?: { kind?: string; resource?: { storageVersion?: boolean } }[];
}

/** A file that does not parse says nothing here; `npm run generate` reports it. */
function parseLeniently(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

function readHeaders(schemasDir: string): HeaderFacts[] {
  if (!existsSync(schemasDir)) return [];
  const out: HeaderFacts[] = [];
  for (const dir of readdirSync(schemasDir, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const name of readdirSync(join(schemasDir, dir.name))) {
      if (!name.endsWith(".yaml")) continue;
      const parsed = parseLeniently(readFileSync(join(schemasDir, dir.name, name), "utf8"));
      if (typeof parsed === "object" && parsed !== null) out.push(parsed as HeaderFacts);
    }
  }
  return out;
}

function neighbours(request: ScaffoldRequest): Neighbours {
  const headers = readHeaders(request.schemasDir);
  const siblings = headers.filter((h) => h.group === request.group);
  const max = (values: (number | undefined)[]) =>
    values.reduce<number>((m, v) => (typeof v === "number" && v > m ? v : m), -1);
  return {
    groupPriority: siblings[0]?.priority?.group ?? max(headers.map((h) => h.priority?.group)) + 1,
    versionPriority: max(siblings.map((h) => h.priority?.version)) + 1,
    kindStored: siblings.some((h) =>
      h.kinds?.some((k) => k.kind === request.kind && k.resource?.storageVersion === true),
    ),
  };
}

function reversedGroup(group: string): string {
  return group.split(".").reverse().join(".");
}

/** The starter file: one kind with spec and status, a status subresource, protobuf numbers, an example CEL rule. */
function starterSchema(request: ScaffoldRequest, facts: Neighbours): string {
  const { group, version, kind } = request;
  const stability = stabilityOf(version);
  const singular = kind.toLowerCase();
  const prefix = `${reversedGroup(group)}.${version}`;
  // Protobuf package names are identifiers separated by dots: no hyphens.
  const protoPackage = prefix.replace(/-/g, "_");
  const enabled = stability === "stable";
  const storage = facts.kindStored
    ? "      # Another version of the group stores this kind; conversions go through it (docs/new-api-group.md).\n"
    : "      storageVersion: true\n";
  return `# schemas/${group}/${version}.yaml: kapi schema (see docs/schema-format.md)
# Written by \`kapi new-group\`: edit the kinds and definitions, then run \`npm run generate\`.
# A walk-through of every part: docs/new-api-group.md.
group: ${group}
version: ${version}
stability: ${stability}
# ${enabled ? "Served by default; --runtime-config" : "Served only with --runtime-config"}=${group}/${version}=${enabled ? "false turns it off" : "true"}.
enabledByDefault: ${enabled}
priority:
  group: ${facts.groupPriority}
  version: ${facts.versionPriority}
protobuf:
  package: ${protoPackage}
openapi:
  prefix: ${prefix}
kinds:
  - kind: ${kind}
    listKind: ${kind}List
    resource:
      plural: ${pluralOf(singular)}
      singular: ${singular}
      scope: ${request.namespaced ? "Namespaced" : "Cluster"}
      nameFormat: dns-subdomain
      verbs: [ create, delete, deletecollection, get, list, patch, update, watch ]
      subresources:
        - name: status
          verbs: [ get, patch, update ]
${storage}      printerColumns:
        - name: Message
          type: string
          jsonPath: .spec.message
          description: The example field of the spec.
        - name: Age
          type: date
          jsonPath: .metadata.creationTimestamp
          description: Time since the object was created.
definitions:
  ${kind}:
    type: object
    properties:
      apiVersion:
        type: string
      kind:
        type: string
      metadata:
        $ref: ../meta/v1.yaml#/definitions/ObjectMeta
        default: {}
        x-kapi-proto: 1
      spec:
        $ref: "#/definitions/${kind}Spec"
        default: {}
        x-kapi-proto: 2
      status:
        $ref: "#/definitions/${kind}Status"
        x-kapi-proto: 3
  ${kind}List:
    type: object
    required: [ items ]
    properties:
      apiVersion:
        type: string
      items:
        type: array
        items:
          $ref: "#/definitions/${kind}"
        x-kapi-proto: 2
      kind:
        type: string
      metadata:
        $ref: ../meta/v1.yaml#/definitions/ListMeta
        default: {}
        x-kapi-proto: 1
  ${kind}Spec:
    type: object
    properties:
      # An example field: replace it with the kind's own. Every property needs a protobuf field number.
      message:
        type: string
        default: hello
        maxLength: 256
        x-kapi-proto: 1
    x-kubernetes-validations:
      - rule: "self.message.size() > 0"
        message: message must not be empty
  ${kind}Status:
    type: object
    properties:
      observedGeneration:
        type: integer
        format: int64
        x-kapi-proto: 1
      conditions:
        type: array
        items:
          $ref: ../meta/v1.yaml#/definitions/Condition
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [ type ]
        x-kapi-proto: 2
`;
}

/** Writes the starter file; 0 when written, 1 when it exists or cannot be written, 2 on a usage error. */
export async function runScaffoldCommand(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(scaffoldUsage);
    return 0;
  }
  let request: ScaffoldRequest;
  try {
    request = parseArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`kapi new-group: ${error.message}\n\n${scaffoldUsage}`);
    return 2;
  }
  const path = join(request.schemasDir, request.group, `${request.version}.yaml`);
  const shown = relative(process.cwd(), path) || path;
  if (existsSync(path)) {
    console.error(`kapi new-group: ${shown} already exists; not overwriting it`);
    return 1;
  }
  const facts = neighbours(request);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, starterSchema(request, facts), { flag: "wx" });
  } catch (error) {
    console.error(`kapi new-group: cannot write ${shown}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  console.log(`created ${shown}`);
  console.log("next: edit it, run npm run generate, then serve it:");
  console.log(`  kapi serve --runtime-config=${request.group}/${request.version}=true`);
  return 0;
}
