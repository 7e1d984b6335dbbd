// Kubernetes' semver library (k8s.io/apiserver/pkg/cel/library/semverlib.go, "kubernetes.Semver", version 1
// from 1.33): the `kubernetes.Semver` type, `semver(string[, normalize])`, `isSemver(string[, normalize])`,
// `major`, `minor`, `patch` and the comparisons. Two versions are equal when they compare equal (build
// metadata does not count).

import { BoolType, IntType, opaqueType, StringType } from "../../common/cel-types.js";
import type { CelLibrary, FunctionDecl, OverloadImpl } from "../../common/decls.js";
import { CelOpaque, type CelValue } from "../../common/values.js";
import { parsesStringArgument } from "../kubernetes-cost.js";
import { declareFunction, globalOverload, memberOverload } from "../standard/declare.js";
import { noSuchOverload } from "../standard/overload-errors.js";
import { parsedValue } from "./parsed.js";
import {
  compareVersions,
  parseNormalizedSemanticVersion,
  parseSemanticVersion,
  type SemanticVersion,
} from "./semantic-version.js";

export const SemverType = opaqueType("kubernetes.Semver");

export class SemverValue extends CelOpaque {
  readonly celType = SemverType;
  constructor(readonly version: SemanticVersion) {
    super();
  }
  equals(other: CelValue): boolean {
    return other instanceof SemverValue && compareVersions(this.version, other.version) === 0;
  }
}

/** `semver(string[, normalize])`: the version, or blang's parse error. */
export function stringToSemver(s: CelValue, normalize: CelValue = false): CelValue {
  if (typeof normalize !== "boolean") return noSuchOverload();
  return parsedValue(s, normalize ? parseNormalizedSemanticVersion : parseSemanticVersion, SemverValue);
}

function isSemver(s: CelValue, normalize: CelValue = false): CelValue {
  if (typeof s !== "string" || typeof normalize !== "boolean") return noSuchOverload();
  return (normalize ? parseNormalizedSemanticVersion : parseSemanticVersion)(s).ok;
}

/** A version number as CEL's int64 (Go converts the uint64 with wrap-around). */
function versionPart(read: (v: SemanticVersion) => bigint): OverloadImpl {
  return ([v]) => (v instanceof SemverValue ? BigInt.asIntN(64, read(v.version)) : noSuchOverload());
}

function comparison(result: (order: number) => CelValue): OverloadImpl {
  return ([a, b]) =>
    a instanceof SemverValue && b instanceof SemverValue
      ? result(compareVersions(a.version, b.version))
      : noSuchOverload();
}

const S = SemverType;

const functions: FunctionDecl[] = [
  declareFunction(
    "semver",
    globalOverload("string_to_semver", [StringType], S, ([s]) => stringToSemver(s as CelValue), parsesStringArgument()),
    globalOverload(
      "string_bool_to_semver",
      [StringType, BoolType],
      S,
      ([s, normalize]) => stringToSemver(s as CelValue, normalize as CelValue),
      parsesStringArgument(),
    ),
  ),
  declareFunction(
    "isSemver",
    globalOverload(
      "is_semver_string",
      [StringType],
      BoolType,
      ([s]) => isSemver(s as CelValue),
      parsesStringArgument(),
    ),
    globalOverload(
      "is_semver_string_bool",
      [StringType, BoolType],
      BoolType,
      ([s, normalize]) => isSemver(s as CelValue, normalize as CelValue),
      parsesStringArgument(),
    ),
  ),
  declareFunction(
    "isGreaterThan",
    memberOverload(
      "semver_is_greater_than",
      [S, S],
      BoolType,
      comparison((order) => order === 1),
    ),
  ),
  declareFunction(
    "isLessThan",
    memberOverload(
      "semver_is_less_than",
      [S, S],
      BoolType,
      comparison((order) => order === -1),
    ),
  ),
  declareFunction(
    "compareTo",
    memberOverload(
      "semver_compare_to",
      [S, S],
      IntType,
      comparison((order) => BigInt(order)),
    ),
  ),
  declareFunction(
    "major",
    memberOverload(
      "semver_major",
      [S],
      IntType,
      versionPart((v) => v.major),
    ),
  ),
  declareFunction(
    "minor",
    memberOverload(
      "semver_minor",
      [S],
      IntType,
      versionPart((v) => v.minor),
    ),
  ),
  declareFunction(
    "patch",
    memberOverload(
      "semver_patch",
      [S],
      IntType,
      versionPart((v) => v.patch),
    ),
  ),
];

export const semverLibrary: CelLibrary = { name: "kubernetes.Semver", functions, types: [SemverType] };
