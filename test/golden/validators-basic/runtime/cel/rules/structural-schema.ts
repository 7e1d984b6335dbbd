// Stands in for the runtime module so the expected generated code typechecks in place.
export * from "../../../../../../runtime/cel/rules/structural-schema.js";
