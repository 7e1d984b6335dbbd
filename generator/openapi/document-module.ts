// A generated document as a TypeScript module: JSON with sorted keys (stable output, the order kube's own
// documents have), typed loosely so typechecking stays cheap.
import { sortKeys } from "../../runtime/openapi/canonical-json.js";
import { generatedHeader } from "../emit/emitter.js";

export function documentModule(sources: string[], document: unknown): string {
  return (
    `${generatedHeader(sources)}\n` +
    `const document: Record<string, unknown> = ${JSON.stringify(sortKeys(document), null, 2)};\n\n` +
    "export default document;\n"
  );
}
