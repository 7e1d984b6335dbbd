// kube's ValidateConfiguration for ResourceQuota's admission configuration: every limited resource names its
// resource. Shared by the plugin's loader and the kinds' strategy (`kapi config validate`).
import { type FieldError, required } from "../../errors/field-error.js";

export function validateLimitedResources(limitedResources: readonly { resource?: unknown }[]): FieldError[] {
  return limitedResources.flatMap((limited, i) =>
    typeof limited.resource === "string" && limited.resource !== ""
      ? []
      : [required(`limitedResources[${i}].resource`, "")],
  );
}
