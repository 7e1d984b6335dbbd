#!/usr/bin/env node
// Entry point of the `kapi` command: registers tsx in this process and runs the TypeScript CLI, so signals
// (Ctrl-C, SIGTERM) reach the server itself rather than a wrapper.
import { register } from "tsx/esm/api";

register();
await import("../runtime/cli/main.ts");
