// A generated document as a JSON file, which the server reads on first use (runtime/package-files.ts):
// sorted keys (stable output, the order kube's own documents have), indented so that changes diff by line.
import { sortKeys } from "../../runtime/openapi/canonical-json.js";

export function documentJson(document: unknown): string {
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}
