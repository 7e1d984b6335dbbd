// Checks the CEL rules (x-kubernetes-validations) of every kind as kube-apiserver checks those of a
// CustomResourceDefinition: rules that do not compile, are malformed or are estimated too expensive are
// problems, reported where they are written.
import { compileRules } from "../../runtime/cel/rules/rule-checks.js";
import { StructuralSchemas } from "../emit/kind-structural-schema.js";
import type { SchemaSet } from "../schema/schema-set.js";

/** Every problem with the rules of the set's kinds, as `schemas/<file>.yaml: <location>: <message>`. */
export function celRuleProblems(set: SchemaSet): string[] {
  const schemas = new StructuralSchemas(set);
  const problems = new Set<string>();
  for (const kind of set.kinds()) {
    const schema = schemas.withRules(kind);
    if (schema === undefined) continue;
    for (const { error, schema: node } of compileRules(schema)) {
      // Rule problems end in `x-kubernetes-validations[<i>].<field>`; the rule's origin says where it is written.
      const [, ruleIndex, rest] = /x-kubernetes-validations\[(\d+)\](.*)$/.exec(error.field) ?? [];
      const origin = ruleIndex === undefined ? undefined : schemas.origins.get(node)?.[Number(ruleIndex)];
      const where =
        origin !== undefined
          ? `${origin.file}: ${origin.location}${rest ?? ""}`
          : `${kind.file.path}: definitions.${kind.entry.kind}${error.field === "" ? "" : `.${error.field}`}`;
      problems.add(`${where}: ${error.detail ?? error.type}`);
    }
  }
  return [...problems];
}
