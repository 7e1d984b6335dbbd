// A YAML request body turned into the value kube's YAML decoder produces (sigs.k8s.io/yaml over go-yaml v2,
// reimplemented in yaml/): YAML 1.1 scalars as go-yaml reads them (yes/no booleans, 0777 octals, timestamps
// left as strings), only the first document, every mapping's keys sorted as kube's conversion through a Go
// map and encoding/json leaves them, repeated keys worded as go-yaml's strict mode words them, and every
// refusal in go-yaml's words, its nesting limits (10,000 flow levels, 10,000 indentation levels) and its rule
// against excessive aliasing included. The converted document must also nest no deeper than the 10,000
// levels encoding/json reads. Reading is linear in the body and takes no call stack per level, so hostile
// bodies are refused as cheaply as any other.
import type { ParsedBody, ParseFailure } from "./parsed-body.js";
import { decodeFirstDocument, jsonTooDeep } from "./yaml/yaml-document.js";
import { YamlDecodeError, YamlSyntaxError } from "./yaml/yaml-error.js";
import { readYamlInput } from "./yaml/yaml-input.js";

/** Parses a YAML body, or says why it cannot be read in the words kube's decoder uses. */
export function parseYaml(buf: Buffer): ParsedBody | ParseFailure {
  try {
    const decoded = decodeFirstDocument(readYamlInput(buf));
    const tooDeep = jsonTooDeep(decoded);
    if (tooDeep !== undefined)
      return { error: `invalid character '${tooDeep}' exceeded max depth`, convertedJson: true };
    return { value: decoded.value, duplicates: [], duplicateKeys: new Map(), yamlDuplicates: decoded.duplicates };
  } catch (e) {
    if (e instanceof YamlSyntaxError || e instanceof YamlDecodeError) return { error: e.message };
    throw e;
  }
}
