// The generated .proto files (generated/proto/) as protobufjs reflection: every message kapi's schemas
// declare, with its field numbers and types. They are read on the first protobuf body, so a server whose
// clients speak JSON never loads them.
import type protobuf from "protobufjs";
import { protoFiles } from "../../../generated/proto/index.js";
import { packageFile } from "../../package-files.js";
import { protobufjs } from "./protobufjs.js";

let root: protobuf.Root | undefined;

function loadedRoot(): protobuf.Root {
  if (root === undefined) {
    const loading = new (protobufjs().Root)();
    // Imports inside the files are paths below generated/proto/, like the paths the index lists.
    loading.resolvePath = (_origin, target) => packageFile(`generated/proto/${target}`);
    loading.loadSync(
      protoFiles.map((f) => f.path),
      { keepCase: true },
    );
    loading.resolveAll();
    root = loading;
  }
  return root;
}

/** A message by its fully qualified name (`k8s.io.api.apps.v1.Deployment`). */
export function protoMessage(qualified: string): protobuf.Type | undefined {
  const found = loadedRoot().lookup(`.${qualified}`);
  return found instanceof protobufjs().Type ? found : undefined;
}

/** The protobuf package of a schema file, by its path below generated/proto/ (`apps/v1.proto`). */
export function protoPackage(path: string): string | undefined {
  return protoFiles.find((f) => f.path === path)?.package;
}
