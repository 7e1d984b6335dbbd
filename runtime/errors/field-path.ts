// Field paths as apimachinery's field.Path prints them: `spec.containers[0].name`, `metadata.labels[app]`.

/** The path of a named field below `path`; the root path is the empty string. */
export function child(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

/** The path of a list item. */
export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

/** The path of a map entry: keys are printed bare, as kube does. */
export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}
