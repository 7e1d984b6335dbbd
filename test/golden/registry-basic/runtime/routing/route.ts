// The generated route table imports the runtime from ../runtime; in a golden case that is this stand-in.
export * from "../../../../../runtime/routing/route.js";
