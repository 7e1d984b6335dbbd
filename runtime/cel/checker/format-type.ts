// Types as cel-go's checker prints them in messages and checked debug strings (checker.FormatCELType):
// `timestamp` and `duration` rather than their protobuf names, `null`, `!error!`, type parameters by
// name (`list(_var0)`), and `type` for the unparameterized type of types.
import { type CelType, TypeType } from "../common/cel-types.js";

export function formatCheckedType(type: CelType): string {
  switch (type.kind) {
    case "any":
      return "any";
    case "error":
      return "!error!";
    case "null_type":
      return "null";
    case "timestamp":
      return "timestamp";
    case "duration":
      return "duration";
    case "param":
      return type.name;
    case "list":
      return `list(${formatCheckedType(type.elem)})`;
    case "map":
      return `map(${formatCheckedType(type.key)}, ${formatCheckedType(type.value)})`;
    case "type":
      return type === TypeType ? "type" : `type(${formatCheckedType(type.type)})`;
    case "opaque":
      return type.params.length === 0 ? type.name : `${type.name}(${type.params.map(formatCheckedType).join(", ")})`;
    case "object":
      return type.name;
    default:
      return type.kind;
  }
}

/** A call's argument types as cel-go prints them in "found no matching overload": `(int, string)`, `string.(int)`. */
export function formatCallSignature(argTypes: readonly CelType[], isMember: boolean): string {
  const [receiver, ...rest] = argTypes;
  const args = isMember ? rest : argTypes;
  const list = `(${args.map(formatCheckedType).join(", ")})`;
  return isMember && receiver !== undefined ? `${formatCheckedType(receiver)}.${list}` : list;
}
