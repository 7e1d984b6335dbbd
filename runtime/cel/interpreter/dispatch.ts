// Overload matching at run time, as cel-go's runtime signature guard does: a value matches a parameter
// type by its kind; lists and maps are judged by their first element or entry; type parameters and dyn
// match anything. The planner also asks whether the checked argument types already guarantee a match, so
// that statically resolved calls skip the guard.

import type { CelType } from "../common/cel-types.js";
import type { OverloadDecl } from "../common/decls.js";
import {
  CelDuration,
  CelError,
  CelList,
  CelMap,
  CelObject,
  CelOpaque,
  CelOptional,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type CelValue,
} from "../common/values.js";

export function valueMatches(type: CelType, value: CelValue): boolean {
  switch (type.kind) {
    case "dyn":
    case "any":
    case "param":
      return true;
    case "bool":
      return typeof value === "boolean";
    case "int":
      return typeof value === "bigint";
    case "uint":
      return value instanceof CelUint;
    case "double":
      return typeof value === "number";
    case "string":
      return typeof value === "string";
    case "bytes":
      return value instanceof Uint8Array;
    case "null_type":
      return value === null;
    case "timestamp":
      return value instanceof CelTimestamp;
    case "duration":
      return value instanceof CelDuration;
    case "list":
      return value instanceof CelList && (value.size === 0 || valueMatches(type.elem, value.get(0)));
    case "map":
      return value instanceof CelMap && mapMatches(type.key, type.value, value);
    case "type":
      return value instanceof CelTypeValue;
    case "opaque":
      if (type.name === "optional_type") {
        const elem = type.params[0];
        return (
          value instanceof CelOptional &&
          (value.value === undefined || elem === undefined || valueMatches(elem, value.value))
        );
      }
      return value instanceof CelOpaque && "name" in value.celType && value.celType.name === type.name;
    case "object":
      return value instanceof CelObject && value.type.name === type.name;
    case "error":
      return false;
  }
}

function mapMatches(keyType: CelType, valueType: CelType, map: CelMap): boolean {
  const first = map.keys().next();
  if (first.done) return true;
  return valueMatches(keyType, first.value) && valueMatches(valueType, map.get(first.value) as CelValue);
}

/**
 * Whether every argument matches the overload's parameters (receiver first). A non-strict function accepts
 * an error in any position (cel-go's matchRuntimeArgType).
 */
export function argumentsMatch(overload: OverloadDecl, args: readonly CelValue[], allowErrors = false): boolean {
  const params = overload.params;
  if (params.length !== args.length) return false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as CelValue;
    if (allowErrors && arg instanceof CelError) continue;
    if (!valueMatches(params[i] as CelType, arg)) return false;
  }
  return true;
}

/** Whether any value of the checked type `arg` matches `param`, so no run-time guard is needed. */
export function staticallyMatches(param: CelType, arg: CelType | undefined): boolean {
  if (param.kind === "dyn" || param.kind === "any" || param.kind === "param") return true;
  if (arg === undefined || arg.kind !== param.kind) return false;
  switch (param.kind) {
    case "list":
      return staticallyMatches(param.elem, (arg as typeof param).elem);
    case "map": {
      const map = arg as typeof param;
      return staticallyMatches(param.key, map.key) && staticallyMatches(param.value, map.value);
    }
    case "opaque": {
      const opaque = arg as typeof param;
      return (
        param.name === opaque.name &&
        param.params.length === opaque.params.length &&
        param.params.every((p, i) => staticallyMatches(p, opaque.params[i]))
      );
    }
    case "object":
      return param.name === (arg as typeof param).name;
    default:
      return true;
  }
}
