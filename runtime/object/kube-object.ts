// A decoded object as JSON: what strategies, admission, patch, apply and storage views all read and change
// in place. The runtime never types an object by its kind; the schemas and generated tables describe it.
export type KubeObject = Record<string, unknown>;
