// kube's ValidatingAdmissionPolicy type checker (admission/plugin/policy/validating/typechecking.go): each
// validation expression and message expression is compiled against the schema of every kind the policy's
// matchConstraints name explicitly (no wildcards, no subresources, at most ten kinds), with `object` and
// `oldObject` typed by that kind, `params` by the paramKind (undeclared when it has no schema) and the
// policy's variables typed in order. Problems become `status.typeChecking.expressionWarnings`; they
// never change how the policy runs. The expressions' result types are not checked here.

import {
  type CelType,
  DynType,
  type FieldDecl,
  IntType,
  listType,
  mapType,
  objectType,
  StringType,
  TimestampType,
} from "../../cel/common/cel-types.js";
import type { VariableDecl } from "../../cel/common/decls.js";
import { CelIssues } from "../../cel/common/issues.js";
import type { CelEnv } from "../../cel/env.js";
import { AuthorizerType } from "../../cel/library/kubernetes/authorizer-library.js";
import { kubernetesBaseEnv } from "../../cel/rules/base-environment.js";
import { declTypeOf } from "../../cel/rules/schema-types.js";
import type { ServedKind } from "../../registry/served-kind.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import { compareGoStrings } from "../../selection/go-strings.js";
import type { PolicySpec } from "./compile-policy.js";
import type { MatchResources } from "./match-resources.js";
import { admissionRequestType } from "./request-variable.js";
import { KindSchemas } from "./type-checking-schemas.js";

/** kube's maxTypesToCheck. */
const maxTypesToCheck = 10;

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

/** What resolves a rule's group/version/resource to the kind served there (kube's RESTMapper). */
export interface KindResolver {
  servedKind(group: string, version: string, resource: string): ServedKind | undefined;
  kindOf(group: string, version: string, kind: string): ServedKind | undefined;
}

function object(name: string, fields: Record<string, CelType>): CelType {
  return objectType(name, new Map<string, FieldDecl>(Object.entries(fields).map(([k, type]) => [k, { type }])));
}

/** kube's BuildNamespaceType: the Namespace fields `namespaceObject` declares (no managedFields, owners…). */
export const namespaceObjectType: CelType = object("kubernetes.Namespace", {
  metadata: object("kubernetes.NamespaceMetadata", {
    name: StringType,
    generateName: StringType,
    namespace: StringType,
    labels: mapType(StringType, StringType),
    annotations: mapType(StringType, StringType),
    UID: StringType,
    creationTimestamp: TimestampType,
    deletionGracePeriodSeconds: IntType,
    deletionTimestamp: TimestampType,
    generation: IntType,
    resourceVersion: StringType,
    finalizers: listType(StringType),
  }),
  spec: object("kubernetes.NamespaceSpec", { finalizers: listType(StringType) }),
  status: object("kubernetes.NamespaceStatus", {
    conditions: listType(
      object("kubernetes.NamespaceCondition", {
        status: StringType,
        type: StringType,
        lastTransitionTime: TimestampType,
        message: StringType,
        reason: StringType,
      }),
    ),
    phase: StringType,
  }),
});

/** Go's GroupVersionKind.String(): `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
export function groupVersionKindString(kind: { group: string; version: string; kind: string }): string {
  return `${kind.group}/${kind.version}, Kind=${kind.kind}`;
}

/** The names of a rule field, or none when any is a wildcard (kube gives up on wildcards). */
function explicit(values: readonly string[] | undefined): string[] {
  const list = values ?? [];
  return list.some((v) => v.includes("*")) ? [] : [...list].sort(compareGoStrings);
}

function compareKinds(a: ServedKind, b: ServedKind): number {
  return (
    compareGoStrings(a.group, b.group) || compareGoStrings(a.version, b.version) || compareGoStrings(a.kind, b.kind)
  );
}

/** kube's typesToCheck: the kinds the resource rules name, at most ten, sorted by group, version and kind. */
export function kindsToCheck(match: MatchResources | undefined, kinds: KindResolver): ServedKind[] {
  const found = new Map<string, ServedKind>();
  const sorted = () => [...found.values()].sort(compareKinds);
  let count = 0;
  for (const rule of match?.resourceRules ?? []) {
    const groups = explicit(rule.apiGroups);
    const versions = explicit(rule.apiVersions);
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r)).sort(compareGoStrings);
    for (const group of groups) {
      for (const version of versions) {
        for (const resource of resources) {
          const kind = kinds.servedKind(group, version, resource);
          if (kind === undefined) continue;
          found.set(groupVersionKindString(kind), kind);
          count++;
          if (count === maxTypesToCheck) return sorted();
        }
      }
    }
  }
  return sorted();
}

/** Go's ParseGroupVersion: `v1` is the core group; more than one slash is no group/version. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: parts[0] as string };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string };
  return undefined;
}

/** kube names each resolved root type after its kind and the nanoseconds of the clock, to keep them apart. */
function uniqueTypeName(kind: string): string {
  return `${kind}${new Date().getMilliseconds() * 1_000_000 + Number(process.hrtime.bigint() % 1_000_000n)}`;
}

interface Target {
  gvk: string;
  env: CelEnv;
}

export class PolicyTypeChecker {
  readonly #schemas: KindSchemas;

  constructor(
    private readonly kinds: KindResolver,
    schemas: KindSchemas,
    private readonly base: CelEnv = kubernetesBaseEnv(),
  ) {
    this.#schemas = schemas;
  }

  static for(api: ResourceApi): PolicyTypeChecker {
    return new PolicyTypeChecker(api.kinds, new KindSchemas(api));
  }

  /** The warnings kube writes to `status.typeChecking.expressionWarnings`; empty when all is well. */
  async check(spec: PolicySpec): Promise<ExpressionWarning[]> {
    const params = await this.paramsType(spec);
    const targets: Target[] = [];
    for (const kind of kindsToCheck(spec.matchConstraints, this.kinds)) {
      const type = await this.typeOf(kind);
      if (type !== undefined)
        targets.push({ gvk: groupVersionKindString(kind), env: this.environment(spec, type, params) });
    }
    const warnings: ExpressionWarning[] = [];
    const checkField = (fieldRef: string, source: string) => {
      const warning = checkExpression(targets, source);
      if (warning !== "") warnings.push({ fieldRef, warning });
    };
    for (const [i, validation] of (spec.validations ?? []).entries()) {
      checkField(`spec.validations[${i}].expression`, validation.expression ?? "");
      const message = validation.messageExpression ?? "";
      if (message !== "") checkField(`spec.validations[${i}].messageExpression`, message);
    }
    return warnings;
  }

  /** A kind's type; undefined when its schema cannot be had (the kind is then not checked, as in kube). */
  private async typeOf(kind: ServedKind): Promise<CelType | undefined> {
    const schema = await this.#schemas.schemaOf(kind).catch(() => undefined);
    return schema === undefined ? undefined : declTypeOf(schema, true, uniqueTypeName(kind.kind))?.celType;
  }

  private async paramsType(spec: PolicySpec): Promise<CelType | undefined> {
    if (spec.paramKind === undefined) return undefined;
    const gv = parseGroupVersion(spec.paramKind.apiVersion ?? "");
    const kind = gv === undefined ? undefined : this.kinds.kindOf(gv.group, gv.version, spec.paramKind.kind ?? "");
    return kind === undefined ? undefined : this.typeOf(kind);
  }

  /** kube's buildEnvSet for one kind, with the policy's variables compiled into `variables`. */
  private environment(spec: PolicySpec, objectType: CelType, params: CelType | undefined): CelEnv {
    const fields = new Map<string, FieldDecl>();
    const decls: VariableDecl[] = [
      { name: "namespaceObject", type: namespaceObjectType },
      { name: "request", type: admissionRequestType },
      { name: "object", type: objectType },
      { name: "oldObject", type: objectType },
      { name: "authorizer", type: AuthorizerType },
      { name: "variables", type: objectTypeOfVariables(fields) },
    ];
    if (params !== undefined) decls.push({ name: "params", type: params });
    const env = this.base.extend(decls);
    // Each variable sees the ones before it; one that does not compile is dyn.
    for (const variable of spec.variables ?? []) {
      const checked = env.compile(variable.expression ?? "");
      const type = checked instanceof CelIssues ? DynType : (checked.types.get(checked.expr.id) ?? DynType);
      fields.set(variable.name ?? "", { type });
    }
    return env;
  }
}

function objectTypeOfVariables(fields: Map<string, FieldDecl>): CelType {
  return objectType("kubernetes.variables", fields);
}

/** kube's TypeCheckingResults.String(): `<gvk>: <cel-go issues>` for each kind it fails on. */
function checkExpression(targets: readonly Target[], source: string): string {
  const messages: string[] = [];
  for (const { gvk, env } of targets) {
    const checked = env.compile(source);
    if (checked instanceof CelIssues) messages.push(`${gvk}: ${checked.toDisplayString()}\n`);
  }
  return messages.join("\n");
}
