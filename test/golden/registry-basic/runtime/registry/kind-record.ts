// The generated registry imports the runtime from ../runtime; in a golden case that is this stand-in.
export * from "../../../../../runtime/registry/kind-record.js";
