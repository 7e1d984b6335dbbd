// The generated clients import the runtime from ../runtime; in a golden case that is this stand-in.
export * from "../../../../../runtime/client/resource-client.js";
