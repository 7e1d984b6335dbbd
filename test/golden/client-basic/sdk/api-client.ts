// The generated clients import the SDK runtime from ../sdk; in a golden case that is this stand-in.
export * from "../../../../sdk/api-client.js";
