// The runtime's layers, bottom to top (docs/architecture.md). A module may import from its own layer and the
// layers below it, never from a layer above; no import cycles anywhere, type-only imports included.
const layers = [
  {
    name: "base",
    paths: [
      "^runtime/errors/",
      "^runtime/object/",
      "^runtime/storage/",
      "^runtime/metrics/(metric-registry|kube-version)\\.ts$",
      "^runtime/conversion/",
      "^runtime/cel/(common|parser|checker|interpreter)/",
      "^runtime/cel/library/(?!kubernetes/)",
      "^runtime/cel/env\\.ts$",
      "^runtime/package-files\\.ts$",
      // What the server shares with the SDK package (sdk/): kubeconfig loading, backoff, RFC 3339 times, text lines.
      "^sdk/(kubeconfig|backoff|date-time|text-lines)\\.ts$",
    ],
  },
  {
    name: "machinery",
    paths: [
      "^runtime/features/",
      "^runtime/(registry|routing|selection|validation|codecs|patch|apply|watch-cache|discovery|openapi|http|printers)/",
      "^runtime/(access|cel/rules|cel/library/kubernetes)/",
      "^generated/(?!strategies\\.ts$|client/)",
    ],
  },
  { name: "api", paths: ["^runtime/resources/", "^runtime/admission/admission\\.ts$"] },
  {
    name: "plugins",
    paths: [
      "^runtime/(strategies|authn|authz|crd|controllers|service-network|quota|config|flowcontrol|audit)/",
      "^runtime/admission/(?!admission\\.ts$)",
      "^generated/strategies\\.ts$",
    ],
  },
  {
    name: "server",
    paths: [
      "^runtime/(handlers|server|cli|workers)/",
      "^runtime/metrics/(?!(metric-registry|kube-version)\\.ts$)",
      "^runtime/index\\.ts$",
    ],
  },
];

/** The SDK package beyond what it shares with the server: a client, which the server never imports. */
const client = ["^sdk/(?!(kubeconfig|backoff|date-time|text-lines)\\.ts$)", "^generated/client/"];

const anyOf = (paths) => `(${paths.join("|")})`;

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Import cycles, type-only imports included, hide the layering; break them by moving the shared part down.",
      from: {},
      to: { circular: true },
    },
    ...layers.slice(0, -1).map((layer, i) => ({
      name: `no-upward-from-${layer.name}`,
      severity: "error",
      comment: `The ${layer.name} layer imports only from itself and the layers below it.`,
      from: { path: anyOf(layer.paths) },
      to: { path: anyOf(layers.slice(i + 1).flatMap((l) => l.paths)) },
    })),
    {
      name: "no-client-in-server",
      severity: "error",
      comment: "The server imports from the SDK only what the two share (kubeconfig, backoff, date-time, text-lines).",
      from: { path: anyOf(layers.flatMap((l) => l.paths)) },
      to: { path: anyOf(client) },
    },
    {
      name: "client-not-from-server",
      severity: "error",
      comment: "The SDK package stands alone: it never imports the server runtime.",
      from: { path: anyOf(client) },
      to: { path: "^runtime/" },
    },
    {
      name: "runtime-not-from-tooling",
      severity: "error",
      comment:
        "The served runtime never imports the generator, scripts, tests or benchmarks; only the CLI's `kapi sdk` runs the generator's CRD emitters.",
      from: { path: "^(runtime|generated|sdk)/", pathNot: "^runtime/cli/" },
      to: { path: "^(generator|scripts|test|bench)/" },
    },
    {
      name: "cli-generator-only-crd",
      severity: "error",
      comment: "The CLI may use the generator's CRD emitters and nothing else of it.",
      from: { path: "^runtime/cli/" },
      to: { path: "^(generator/(?!crd/|emit/|schema/|conversion/|openapi/|proto/|validate/)|scripts|test|bench)/" },
    },
    {
      name: "layered-everything",
      severity: "error",
      comment: "Every runtime module belongs to a layer.",
      from: { path: "^runtime/", pathNot: anyOf(layers.flatMap((l) => l.paths)) },
      to: {},
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist)/" },
  },
};
