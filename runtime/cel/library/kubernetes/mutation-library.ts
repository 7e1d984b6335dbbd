// What mutating admission expressions build objects and patches with (k8s.io/apiserver/pkg/cel/mutation):
// `Object` and every `Object.<field>…` type, resolved on demand with any field of type dyn (kube compiles
// these expressions without the object's schema), the `JSONPatch` type with its op, path, from and value
// fields, and the `jsonpatch.escapeKey` function.
import {
  type CelType,
  DynType,
  type FieldDecl,
  type ObjectType,
  objectType,
  StringType,
} from "../../common/cel-types.js";
import type { CelLibrary } from "../../common/decls.js";
import type { CelValue } from "../../common/values.js";
import { declareFunction, globalOverload } from "../standard/declare.js";
import { noSuchOverload } from "../standard/overload-errors.js";

export const objectTypeName = "Object";
export const jsonPatchTypeName = "JSONPatch";

const dynField: FieldDecl = { type: DynType };

/** Fields of a type built without a schema: every name is a field of type dyn, none is listed. */
class OpenFields extends Map<string, FieldDecl> {
  override get(): FieldDecl {
    return dynField;
  }
  override has(): boolean {
    return true;
  }
}

/** cel-go reports a field JSONPatch lacks as having no type, which prints as ''. */
const noType: FieldDecl = { type: objectType("") };

class JsonPatchFields extends Map<string, FieldDecl> {
  constructor() {
    super([
      ["op", { type: StringType }],
      ["path", { type: StringType }],
      ["from", { type: StringType }],
      ["value", dynField],
    ]);
  }
  override get(name: string): FieldDecl {
    return super.get(name) ?? noType;
  }
}

export const jsonPatchType: ObjectType = objectType(jsonPatchTypeName, new JsonPatchFields());

const objectTypes = new Map<string, ObjectType>();

function resolveType(name: string): CelType | undefined {
  if (name === jsonPatchTypeName) return jsonPatchType;
  if (name !== objectTypeName && !name.startsWith(`${objectTypeName}.`)) return undefined;
  let type = objectTypes.get(name);
  if (type === undefined) {
    type = objectType(name, new OpenFields());
    objectTypes.set(name, type);
  }
  return type;
}

/** `jsonpatch.escapeKey('k8s.io/my~label')` is `k8s.io~1my~0label`: `~` and `/` escaped for a JSON pointer. */
export function escapeJsonPatchKey(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

function escapeKey([key]: readonly CelValue[]): CelValue {
  return typeof key === "string" ? escapeJsonPatchKey(key) : noSuchOverload();
}

export const mutationLibrary: CelLibrary = {
  name: "kubernetes.mutation",
  resolveType,
  functions: [
    declareFunction(
      "jsonpatch.escapeKey",
      globalOverload("string_jsonpatch_escapeKey_string", [StringType], StringType, escapeKey),
    ),
  ],
};
