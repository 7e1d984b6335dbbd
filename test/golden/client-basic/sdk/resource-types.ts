// The generated clients import the SDK's shared shapes from ../sdk; in a golden case that is this stand-in.
export * from "../../../../sdk/resource-types.js";
