// The scale subresource's paths: specReplicasPath under .spec, statusReplicasPath under .status, an
// optional labelSelectorPath under either. (The status subresource has no settings.)
import { type FieldError, invalid, required } from "../../errors/field-error.js";
import type { Subresources } from "./internal-spec.js";
import { simpleJsonPathErrors } from "./json-paths.js";

function pathUnder(value: string | undefined, path: string, prefixes: readonly string[], detail: string): FieldError[] {
  if (value === undefined) return [];
  if (value === "") return [required(path)];
  const errs = simpleJsonPathErrors(value, path);
  if (errs.length > 0) return errs;
  return prefixes.some((p) => value.startsWith(p)) ? [] : [invalid(path, value, detail)];
}

export function validateSubresources(subresources: Subresources | undefined, path: string): FieldError[] {
  const scale = subresources?.scale;
  if (scale === undefined) return [];
  const errs = [
    ...pathUnder(
      scale.specReplicasPath,
      `${path}.scale.specReplicasPath`,
      [".spec."],
      "should be a json path under .spec",
    ),
    ...pathUnder(
      scale.statusReplicasPath,
      `${path}.scale.statusReplicasPath`,
      [".status."],
      "should be a json path under .status",
    ),
  ];
  if (scale.labelSelectorPath !== undefined && scale.labelSelectorPath !== "") {
    errs.push(
      ...pathUnder(
        scale.labelSelectorPath,
        `${path}.scale.labelSelectorPath`,
        [".spec.", ".status."],
        "should be a json path under either .spec or .status",
      ),
    );
  }
  return errs;
}
