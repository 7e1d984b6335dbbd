// What ValidatingAdmissionPolicies and MutatingAdmissionPolicies share in kube-apiserver's validation:
// failurePolicy, paramKind, matchConstraints, matchConditions (skipped on an update that keeps them and
// the paramKind), variables, and the compiler their expressions are checked with. kube compiles each
// expression in the environment its kind of expression runs in: `params` only with a paramKind, the
// authorizer everywhere but in message expressions, `variables` only where variables compose (every
// mutating policy, a validating one with variables), the mutation types only for mutations. A
// variable's type as later expressions see it keeps primitives, lists and maps and is dyn otherwise.
import { isDeepStrictEqual } from "node:util";
import { admissionRequestType } from "../admission/policy/request-variable.js";
import { namespaceObjectType } from "../admission/policy/type-checking.js";
import type { CheckedAst } from "../cel/common/ast.js";
import {
  type CelType,
  DynType,
  type FieldDecl,
  formatType,
  listType,
  mapType,
  objectType,
} from "../cel/common/cel-types.js";
import type { VariableDecl } from "../cel/common/decls.js";
import { CelIssues } from "../cel/common/issues.js";
import { CelEnv } from "../cel/env.js";
import { authorizerVariables } from "../cel/library/kubernetes/authorizer-library.js";
import { mutationLibrary } from "../cel/library/kubernetes/mutation-library.js";
import { kubernetesBaseEnv } from "../cel/rules/base-environment.js";
import { celReservedWords } from "../cel/rules/escaping.js";
import { type FieldError, invalid, notSupported, required } from "../errors/field-error.js";
import { child, index } from "../errors/field-path.js";
import { dns1035LabelErrors, dnsSubdomainErrors } from "../validation/name-formats.js";
import { asObject, listItems } from "../validation/walk.js";
import { validateMatchResources } from "./policy-binding-validation.js";
import { validateMatchConditions } from "./webhook-configuration-match-conditions.js";

/** kube's set in its sorted order, as its "supported values" message prints it. */
const failurePolicies = ["Fail", "Ignore"];

const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** An expression's declared result types; `any` accepts every result. */
type ResultTypes = readonly CelType[] | "any";

interface EnvironmentKey {
  authorizer: boolean;
  patchTypes: boolean;
}

/**
 * One policy's expression compiler. Variables compile in order and each joins `variables` (when the
 * policy composes variables) for the expressions compiled after it.
 */
export class PolicyExpressionCompiler {
  private readonly variableFields = new Map<string, FieldDecl>();
  private readonly variablesType = objectType("kubernetes.variables", this.variableFields);
  private readonly environments = new Map<string, CelEnv>();

  constructor(
    private readonly hasParams: boolean,
    private readonly composesVariables: boolean,
  ) {}

  private environment(key: EnvironmentKey): CelEnv {
    const id = `${key.authorizer}/${key.patchTypes}`;
    let env = this.environments.get(id);
    if (env === undefined) {
      const base = kubernetesBaseEnv();
      const libraries = key.patchTypes
        ? new CelEnv({ ...base.options, libraries: [...base.options.libraries, mutationLibrary] })
        : base;
      const decls: VariableDecl[] = [
        { name: "object", type: DynType },
        { name: "oldObject", type: DynType },
        { name: "namespaceObject", type: namespaceObjectType },
        { name: "request", type: admissionRequestType },
      ];
      if (this.hasParams) decls.push({ name: "params", type: DynType });
      if (key.authorizer) decls.push(...authorizerVariables);
      if (this.composesVariables) decls.push({ name: "variables", type: this.variablesType });
      env = libraries.extend(decls);
      this.environments.set(id, env);
    }
    return env;
  }

  /** The compiled expression and its type, or kube's words for why it does not compile. */
  compile(
    source: string,
    results: ResultTypes,
    key: EnvironmentKey = { authorizer: true, patchTypes: false },
  ): { problem?: string; type?: CelType } {
    const checked = this.environment(key).compile(source);
    if (checked instanceof CelIssues) return { problem: `compilation failed: ${checked.toDisplayString()}` };
    const type = (checked as CheckedAst).types.get(checked.expr.id) ?? DynType;
    if (results === "any") return { type };
    const actual = formatType(type);
    const names = results.map(formatType);
    if (names.includes(actual)) return { type };
    const wanted = names.length === 1 ? names[0] : `one of [${names.join(" ")}]`;
    return { problem: `must evaluate to ${wanted} but got ${actual}` };
  }

  /** The environment a mutation compiles in, with the mutation library. */
  mutationEnvironment(): CelEnv {
    return this.environment({ authorizer: true, patchTypes: true });
  }

  /** Compiles a variable and adds it to `variables` (dyn when it does not compile). */
  compileVariable(name: string, source: string): string | undefined {
    const result = this.compile(source, "any");
    this.variableFields.set(name, { type: variableType(result.type) });
    return result.problem;
  }
}

/** How a variable's result type is declared to the expressions after it. */
function variableType(type: CelType | undefined): CelType {
  if (type === undefined) return DynType;
  switch (type.kind) {
    case "list":
      return listType(variableType(type.elem));
    case "map":
      return mapType(variableType(type.key), variableType(type.value));
    case "bool":
    case "int":
    case "uint":
    case "double":
    case "string":
    case "bytes":
    case "null_type":
    case "timestamp":
    case "duration":
    case "any":
      return type;
    default:
      return DynType;
  }
}

function validateFailurePolicy(value: unknown, path: string): FieldError[] {
  if (value === undefined || value === null) return [required(path)];
  return failurePolicies.includes(text(value)) ? [] : [notSupported(path, value, failurePolicies)];
}

/** apimachinery's ParseGroupVersion: `version`, `group/version`, never more than one slash. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === "/") return { group: "", version: "" };
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? "", version: parts[1] ?? "" };
  return undefined;
}

/** validateParamKind: an apiVersion whose group is a DNS subdomain and version a DNS-1035 label, and a kind. */
function validateParamKind(paramKind: unknown, path: string): FieldError[] {
  const kind = asObject(paramKind) ?? {};
  const errs: FieldError[] = [];
  const apiVersion = text(kind.apiVersion);
  const versionPath = child(path, "apiVersion");
  const gv = parseGroupVersion(apiVersion);
  if (apiVersion === "") errs.push(required(versionPath));
  else if (gv === undefined) {
    errs.push(invalid(versionPath, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  } else {
    const groupErrs = gv.group === "" ? [] : dnsSubdomainErrors(gv.group);
    if (groupErrs.length > 0) errs.push(invalid(versionPath, gv.group, groupErrs.join(",")));
    if (gv.version === "") errs.push(invalid(versionPath, apiVersion, "version must be specified"));
    else {
      const labelErrs = dns1035LabelErrors(gv.version);
      if (labelErrs.length > 0) errs.push(invalid(versionPath, gv.version, labelErrs.join(",")));
    }
  }
  const kindName = text(kind.kind);
  const kindPath = child(path, "kind");
  if (kindName === "") errs.push(required(kindPath));
  else {
    const labelErrs = dns1035LabelErrors(kindName.toLowerCase());
    if (labelErrs.length > 0) {
      errs.push(invalid(kindPath, kindName, `may have mixed case, but should otherwise match: ${labelErrs.join(",")}`));
    }
  }
  return errs;
}

/** matchConstraints: required, checked as match resources, with at least one resource rule to type objects. */
function validateMatchConstraints(matchConstraints: unknown, path: string): FieldError[] {
  if (matchConstraints === undefined || matchConstraints === null) return [required(path)];
  const errs = validateMatchResources(matchConstraints, path);
  const rules = listItems(asObject(matchConstraints)?.resourceRules);
  if (rules.length === 0) errs.push(required(child(path, "resourceRules")));
  return errs;
}

/** An update skips its match conditions when they and the paramKind are unchanged (kube's ignoreMatchConditions). */
export function matchConditionsUnchanged(spec: Record<string, unknown>, oldSpec: Record<string, unknown>): boolean {
  return (
    isDeepStrictEqual(spec.paramKind, oldSpec.paramKind) &&
    isDeepStrictEqual(spec.matchConditions, oldSpec.matchConditions)
  );
}

/** The policy's matchConditions; `params` is there when the policy has a paramKind. */
export function validatePolicyMatchConditions(spec: Record<string, unknown>, path: string): FieldError[] {
  const allowParams = spec.paramKind !== undefined && spec.paramKind !== null;
  return validateMatchConditions(listItems(spec.matchConditions), path, { allowParams });
}

/** validateVariable for each variable in order: a CEL identifier and an expression that compiles. */
export function validateVariables(
  variables: readonly unknown[],
  compiler: PolicyExpressionCompiler,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  variables.forEach((item, i) => {
    const variable = asObject(item) ?? {};
    const at = index(path, i);
    const name = text(variable.name);
    if (name.trim() === "") errs.push(required(child(at, "name"), "name is not specified"));
    else if (!celIdentifier.test(name) || celReservedWords.has(name)) {
      errs.push(invalid(child(at, "name"), name, "must be a valid CEL identifier"));
    }
    const expression = text(variable.expression);
    if (expression.trim() === "") {
      errs.push(required(child(at, "expression"), "expression is not specified"));
      return;
    }
    const problem = compiler.compileVariable(name, expression);
    if (problem !== undefined) errs.push(invalid(child(at, "expression"), expression, problem));
  });
  return errs;
}

/** failurePolicy, paramKind and matchConstraints, in kube's order; the spec's first checks. */
export function validatePolicyHead(spec: Record<string, unknown>, path: string): FieldError[] {
  const errs = validateFailurePolicy(spec.failurePolicy, child(path, "failurePolicy"));
  if (spec.paramKind !== undefined && spec.paramKind !== null) {
    errs.push(...validateParamKind(spec.paramKind, child(path, "paramKind")));
  }
  errs.push(...validateMatchConstraints(spec.matchConstraints, child(path, "matchConstraints")));
  return errs;
}
