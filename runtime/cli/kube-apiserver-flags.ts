// Every flag kube-apiserver v1.36 lists in its help, in its sections and order, with its type and the
// default its help shows, and kapi's own description. Whether kapi honours a flag is not written here:
// the flags `kapi serve` parses (serve-flags.ts) are honoured; every other one has a reason below and is
// accepted with a one-line notice. A test holds the two lists together.

export interface KubeFlag {
  name: string;
  /** One-letter form (`-v`, `-h`). */
  shorthand?: string;
  /** pflag's value type as help prints it; "" for booleans. */
  type: string;
  /** The default help shows, as kube prints it (strings quoted); none when help shows none. */
  default?: string;
  description: string;
}

export interface FlagSection {
  /** kube's section name: help prints `<name> flags:`. */
  name: string;
  flags: KubeFlag[];
}

type Row = [name: string, type: string, defaultValue: string | undefined, description: string];

function section(name: string, rows: Row[]): FlagSection {
  return {
    name,
    flags: rows.map(([flag, type, defaultValue, description]) => ({
      name: flag,
      type,
      ...(defaultValue === undefined ? {} : { default: defaultValue }),
      description,
    })),
  };
}

/** kapi's own flags, which kube-apiserver does not have (`--controllers` is kube-controller-manager's). */
export const kapiSection: FlagSection = section("Kapi", [
  ["data-dir", "string", '"./kapi-data"', "Directory for the store, the admin kubeconfig and the default --cert-dir."],
  ["storage", "string", '"sqlite"', "Where objects live: sqlite (<data-dir>/kapi.db, kept) or memory (gone at exit)."],
  ["plain-http", "", undefined, "Serve plain HTTP instead of HTTPS; the admin kubeconfig then carries the token."],
  [
    "workers",
    "int",
    "1",
    "Processes serving clients on the shared port, on the store this one owns (docs/workers.md).",
  ],
  ["controllers", "strings", "[*]", "kube-controller-manager's controller selection: *, name, -name."],
]);

export const kubeApiserverSections: FlagSection[] = [
  section("Generic", [
    ["advertise-address", "ip", undefined, "Address published in the default/kubernetes Endpoints."],
    [
      "cors-allowed-origins",
      "strings",
      undefined,
      "Origins (regular expressions) allowed to make cross-origin requests.",
    ],
    ["emulated-version", "strings", undefined, "Versions of the components' behaviour to emulate (kube=1.33..1.36)."],
    [
      "emulation-forward-compatible",
      "",
      undefined,
      "With an emulated version, turn on newer versions of enabled beta APIs.",
    ],
    ["external-hostname", "string", undefined, "Hostname used in externalized URLs (OpenID discovery)."],
    [
      "feature-gates",
      "colonSeparatedMultimapStringString",
      undefined,
      "Feature gates to turn on or off: [kube:]Name=true|false, comma-separated, repeatable.",
    ],
    ["goaway-chance", "float", undefined, "Chance (0 to 0.02) of sending GOAWAY to an HTTP/2 client to spread load."],
    [
      "livez-grace-period",
      "duration",
      undefined,
      "Time after start during which /livez reports unfinished start-up steps as ok.",
    ],
    ["max-mutating-requests-inflight", "int", "200", "Mutating requests served at once before 429; 0 for no limit."],
    ["max-requests-inflight", "int", "400", "Read-only requests served at once before 429; 0 for no limit."],
    ["min-compatibility-version", "strings", undefined, "Oldest component versions the server stays compatible with."],
    [
      "min-request-timeout",
      "int",
      "1800",
      "Seconds a watch lasts at least (between this and twice this) when the client names none.",
    ],
    ["request-timeout", "duration", "1m0s", "Time after which a request that is not long-running answers 504."],
    [
      "runtime-config-emulation-forward-compatible",
      "",
      undefined,
      "With an emulated version, allow --runtime-config to name APIs newer than it.",
    ],
    [
      "send-retry-after-while-not-ready-once",
      "",
      undefined,
      "Answer 429 with Retry-After until the server is first ready.",
    ],
    [
      "shutdown-delay-duration",
      "duration",
      undefined,
      "Time the server keeps serving after /readyz fails at shutdown.",
    ],
    [
      "shutdown-send-retry-after",
      "",
      undefined,
      "During shutdown, answer new requests 429 with Retry-After and close their connection.",
    ],
    ["shutdown-watch-termination-grace-period", "duration", undefined, "Time open watches get to end during shutdown."],
    [
      "storage-initialization-timeout",
      "duration",
      "1m0s",
      "Time to wait for the storage to be ready before giving up.",
    ],
    [
      "strict-transport-security-directives",
      "strings",
      undefined,
      "Directives of the Strict-Transport-Security header.",
    ],
  ]),
  section("Etcd", [
    ["delete-collection-workers", "int", "1", "Workers deleting the objects of a deletecollection call."],
    ["enable-garbage-collector", "", "true", "Whether the API server takes part in garbage collection."],
    ["encryption-provider-config", "string", undefined, "File configuring encryption of stored resources."],
    [
      "encryption-provider-config-automatic-reload",
      "",
      undefined,
      "Reload the encryption configuration when its file changes.",
    ],
    ["etcd-cafile", "string", undefined, "CA file verifying etcd's serving certificate."],
    ["etcd-certfile", "string", undefined, "Client certificate for etcd."],
    ["etcd-compaction-interval", "duration", "5m0s", "Interval between storage compactions; 0 for none."],
    ["etcd-count-metric-poll-period", "duration", "1m0s", "Interval between counts of stored objects per resource."],
    ["etcd-db-metric-poll-interval", "duration", "30s", "Interval between measurements of the database size."],
    ["etcd-healthcheck-timeout", "duration", "2s", "Timeout of the etcd health check."],
    ["etcd-keyfile", "string", undefined, "Client key for etcd."],
    ["etcd-prefix", "string", '"/registry"', "Key prefix of every stored object."],
    ["etcd-readycheck-timeout", "duration", "2s", "Timeout of the etcd readiness check."],
    ["etcd-servers", "strings", undefined, "etcd servers to connect to."],
    ["etcd-servers-overrides", "strings", undefined, "Per-resource etcd servers: group/resource#servers."],
    ["lease-reuse-duration-seconds", "int", "60", "Seconds an etcd lease is reused for objects with a TTL."],
    ["storage-backend", "string", undefined, "Storage backend: etcd3."],
    ["storage-media-type", "string", '"application/vnd.kubernetes.protobuf"', "Encoding of stored objects."],
    ["watch-cache", "", "true", "Serve lists and watches from the watch cache."],
    ["watch-cache-sizes", "strings", undefined, "Watch cache sizes per resource: resource[.group]#size."],
  ]),
  section("Secure serving", [
    ["bind-address", "ip", "0.0.0.0", "Address to listen on."],
    [
      "cert-dir",
      "string",
      '"/var/run/kubernetes"',
      "Directory of the CA, serving certificate and service account key (kapi: <data-dir>/pki).",
    ],
    ["disable-http2-serving", "", undefined, "Serve HTTP/1.1 only."],
    ["http2-max-streams-per-connection", "int", undefined, "Concurrent HTTP/2 streams per connection."],
    ["permit-address-sharing", "", undefined, "Listen with SO_REUSEADDR."],
    ["permit-port-sharing", "", undefined, "Listen with SO_REUSEPORT."],
    ["secure-port", "int", "6443", "Port to serve on."],
    ["tls-cert-file", "string", undefined, "Serving certificate file."],
    ["tls-cipher-suites", "strings", undefined, "TLS cipher suites the server accepts."],
    ["tls-curve-preferences", "int32Slice", "[]", "Elliptic curves for the TLS key exchange."],
    ["tls-min-version", "string", undefined, "Lowest TLS version accepted."],
    ["tls-private-key-file", "string", undefined, "Key of the serving certificate."],
    ["tls-sni-cert-key", "namedCertKey", "[]", "Certificate and key per server name: cert,key[:names]."],
  ]),
  section("Auditing", [
    ["audit-log-batch-buffer-size", "int", "10000", "Events buffered before the log backend batches them."],
    ["audit-log-batch-max-size", "int", "1", "Largest batch the log backend writes."],
    ["audit-log-batch-max-wait", "duration", undefined, "Longest wait before the log backend writes a batch."],
    ["audit-log-batch-throttle-burst", "int", undefined, "Batches the log backend may write at once above its QPS."],
    ["audit-log-batch-throttle-enable", "", undefined, "Throttle the log backend's batches."],
    ["audit-log-batch-throttle-qps", "float32", undefined, "Batches per second the log backend writes."],
    ["audit-log-compress", "", undefined, "Gzip rotated audit log files."],
    ["audit-log-format", "string", '"json"', "Audit log line format: legacy or json."],
    ["audit-log-maxage", "int", "366", "Days rotated audit log files are kept."],
    ["audit-log-maxbackup", "int", "100", "Rotated audit log files kept."],
    ["audit-log-maxsize", "int", "100", "Megabytes an audit log file grows to before it is rotated."],
    ["audit-log-mode", "string", '"blocking"', "How the log backend sends events: batch, blocking or blocking-strict."],
    ["audit-log-path", "string", undefined, "File audit events are appended to; - for standard output."],
    ["audit-log-truncate-enabled", "", undefined, "Truncate events and batches larger than the limits below."],
    ["audit-log-truncate-max-batch-size", "int", "10485760", "Largest batch in bytes the log backend writes."],
    ["audit-log-truncate-max-event-size", "int", "102400", "Largest event in bytes the log backend writes."],
    ["audit-log-version", "string", '"audit.k8s.io/v1"', "API version of logged events."],
    ["audit-policy-file", "string", undefined, "Audit policy file; nothing is audited without one."],
    ["audit-webhook-batch-buffer-size", "int", "10000", "Events buffered before the webhook backend batches them."],
    ["audit-webhook-batch-max-size", "int", "400", "Largest batch the webhook backend sends."],
    ["audit-webhook-batch-max-wait", "duration", "30s", "Longest wait before the webhook backend sends a batch."],
    ["audit-webhook-batch-throttle-burst", "int", "15", "Batches the webhook backend may send at once above its QPS."],
    ["audit-webhook-batch-throttle-enable", "", "true", "Throttle the webhook backend's batches."],
    ["audit-webhook-batch-throttle-qps", "float32", "10", "Batches per second the webhook backend sends."],
    ["audit-webhook-config-file", "string", undefined, "kubeconfig-format file naming the audit webhook."],
    ["audit-webhook-initial-backoff", "duration", "10s", "Wait before retrying a failed webhook request."],
    [
      "audit-webhook-mode",
      "string",
      '"batch"',
      "How the webhook backend sends events: batch, blocking or blocking-strict.",
    ],
    ["audit-webhook-truncate-enabled", "", undefined, "Truncate events and batches larger than the limits below."],
    ["audit-webhook-truncate-max-batch-size", "int", "10485760", "Largest batch in bytes the webhook backend sends."],
    ["audit-webhook-truncate-max-event-size", "int", "102400", "Largest event in bytes the webhook backend sends."],
    ["audit-webhook-version", "string", '"audit.k8s.io/v1"', "API version of events sent to the webhook."],
  ]),
  section("Features", [
    ["contention-profiling", "", undefined, "Profile lock contention (with --profiling)."],
    ["debug-socket-path", "string", undefined, "Unix socket serving the profiling handlers without authentication."],
    [
      "enable-priority-and-fairness",
      "",
      "true",
      "Queue and limit requests by API Priority and Fairness instead of --max-*-inflight alone.",
    ],
    ["profiling", "", "true", "Serve profiling at /debug/pprof."],
  ]),
  section("Authentication", [
    ["anonymous-auth", "", "true", "Serve requests without credentials as system:anonymous."],
    ["api-audiences", "strings", undefined, "Audiences service account tokens must name."],
    [
      "authentication-config",
      "string",
      undefined,
      "AuthenticationConfiguration file (JWT authenticators, anonymous rules).",
    ],
    ["authentication-token-webhook-cache-ttl", "duration", "2m0s", "How long webhook token reviews are cached."],
    [
      "authentication-token-webhook-config-file",
      "string",
      undefined,
      "kubeconfig-format file naming the token review webhook.",
    ],
    [
      "authentication-token-webhook-version",
      "string",
      '"v1beta1"',
      "TokenReview version sent to the webhook: v1 or v1beta1.",
    ],
    ["client-ca-file", "string", undefined, "CA file verifying client certificates."],
    ["enable-bootstrap-token-auth", "", undefined, "Accept bootstrap tokens from kube-system Secrets."],
    ["oidc-ca-file", "string", undefined, "CA file verifying the OpenID provider."],
    ["oidc-client-id", "string", undefined, "Client ID tokens of the OpenID provider must carry."],
    ["oidc-groups-claim", "string", undefined, "Claim holding the user's groups."],
    ["oidc-groups-prefix", "string", undefined, "Prefix of groups from the OpenID provider."],
    ["oidc-issuer-url", "string", undefined, "Issuer URL of the OpenID provider."],
    ["oidc-required-claim", "mapStringString", undefined, "Claims a token must carry with these values."],
    ["oidc-signing-algs", "strings", "[RS256]", "Signing algorithms accepted."],
    ["oidc-username-claim", "string", '"sub"', "Claim holding the user name."],
    ["oidc-username-prefix", "string", undefined, "Prefix of user names from the OpenID provider."],
    ["requestheader-allowed-names", "strings", undefined, "Client certificate names allowed to set user headers."],
    ["requestheader-client-ca-file", "string", undefined, "CA file verifying proxies that set user headers."],
    [
      "requestheader-extra-headers-prefix",
      "strings",
      undefined,
      "Header prefixes carrying the user's extra attributes.",
    ],
    ["requestheader-group-headers", "strings", undefined, "Headers carrying the user's groups."],
    ["requestheader-uid-headers", "strings", undefined, "Headers carrying the user's uid."],
    ["requestheader-username-headers", "strings", undefined, "Headers carrying the user name."],
    [
      "service-account-extend-token-expiration",
      "",
      "true",
      "Issue projected tokens valid a year while warning on their use after the asked time.",
    ],
    [
      "service-account-issuer",
      "stringArray",
      undefined,
      "Issuer of service account tokens; later ones are also accepted.",
    ],
    ["service-account-jwks-uri", "string", undefined, "JWKS URI published in the issuer's discovery document."],
    ["service-account-key-file", "stringArray", undefined, "Public keys verifying service account tokens."],
    ["service-account-lookup", "", "true", "Check that a token's service account still exists."],
    ["service-account-max-token-expiration", "duration", undefined, "Longest validity of a requested token."],
    ["token-auth-file", "string", undefined, "CSV file of static bearer tokens."],
  ]),
  section("Authorization", [
    ["authorization-config", "string", undefined, "AuthorizationConfiguration file (the authorizer chain)."],
    [
      "authorization-mode",
      "strings",
      undefined,
      "Authorizers in order: AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node (kapi: Node,RBAC).",
    ],
    ["authorization-policy-file", "string", undefined, "ABAC policy file."],
    [
      "authorization-webhook-cache-authorized-ttl",
      "duration",
      "5m0s",
      "How long allowed webhook decisions are cached.",
    ],
    [
      "authorization-webhook-cache-unauthorized-ttl",
      "duration",
      "30s",
      "How long denied webhook decisions are cached.",
    ],
    [
      "authorization-webhook-config-file",
      "string",
      undefined,
      "kubeconfig-format file naming the authorization webhook.",
    ],
    [
      "authorization-webhook-version",
      "string",
      '"v1beta1"',
      "SubjectAccessReview version sent to the webhook: v1 or v1beta1.",
    ],
  ]),
  section("API enablement", [
    [
      "runtime-config",
      "mapStringString",
      undefined,
      "Group/versions to serve or not: group/version=true|false, api/all, api/alpha, api/beta, api/ga.",
    ],
  ]),
  section("Egress selector", [
    [
      "egress-selector-config-file",
      "string",
      undefined,
      "EgressSelectorConfiguration file: how to reach clusters, nodes and etcd.",
    ],
  ]),
  section("Admission", [
    [
      "admission-control",
      "strings",
      undefined,
      "Admission plugins in order (deprecated form of --enable-admission-plugins).",
    ],
    [
      "admission-control-config-file",
      "string",
      undefined,
      "AdmissionConfiguration file with the plugins' configurations.",
    ],
    [
      "default-not-ready-toleration-seconds",
      "int",
      "300",
      "tolerationSeconds of the not-ready toleration added to pods.",
    ],
    [
      "default-unreachable-toleration-seconds",
      "int",
      "300",
      "tolerationSeconds of the unreachable toleration added to pods.",
    ],
    ["disable-admission-plugins", "strings", undefined, "Admission plugins to turn off."],
    ["enable-admission-plugins", "strings", undefined, "Admission plugins to turn on beyond the default ones."],
  ]),
  section("Metrics", [
    ["allow-metric-labels", "stringToString", "[]", "Values allowed per metric label: metric,label='v1,v2'."],
    ["allow-metric-labels-manifest", "string", undefined, "File of allowed metric label values."],
    ["disabled-metrics", "strings", undefined, "Metrics not to expose."],
    [
      "show-hidden-metrics-for-version",
      "string",
      undefined,
      "Previous minor version whose hidden deprecated metrics are shown again.",
    ],
  ]),
  section("Logs", [
    ["log-flush-frequency", "duration", "5s", "Longest time between log flushes."],
    ["log-json-info-buffer-size", "quantity", undefined, "Buffer for info messages of the split JSON stream."],
    ["log-json-split-stream", "", undefined, "JSON format: info to standard output, errors to standard error."],
    ["log-text-info-buffer-size", "quantity", undefined, "Buffer for info messages of the split text stream."],
    ["log-text-split-stream", "", undefined, "Text format: info to standard output, errors to standard error."],
    ["logging-format", "string", '"text"', "Log format: text or json."],
    ["v", "Level", undefined, "Log verbosity; 4 and above print debug lines."],
    ["vmodule", "pattern=N,...", undefined, "Per-file log verbosity."],
  ]),
  section("Traces", [["tracing-config-file", "string", undefined, "TracingConfiguration file."]]),
  section("Misc", [
    ["aggregator-reject-forwarding-redirect", "", "true", "Refuse redirects from aggregated API servers."],
    ["allow-privileged", "", undefined, "Allow privileged containers."],
    ["coordinated-leadership-lease-duration", "duration", "15s", "Lease duration of coordinated leader election."],
    ["coordinated-leadership-renew-deadline", "duration", "10s", "Renew deadline of coordinated leader election."],
    ["coordinated-leadership-retry-period", "duration", "2s", "Retry period of coordinated leader election."],
    [
      "enable-aggregator-routing",
      "",
      undefined,
      "Route aggregated API requests to endpoint IPs rather than the service IP.",
    ],
    ["enable-logs-handler", "", undefined, "Serve the server's logs at /logs."],
    [
      "endpoint-reconciler-type",
      "string",
      '"lease"',
      "How the kubernetes Service's endpoints are kept: master-count, lease or none.",
    ],
    ["event-ttl", "duration", "1h0m0s", "How long events are kept."],
    ["kubelet-certificate-authority", "string", undefined, "CA file verifying kubelets."],
    ["kubelet-client-certificate", "string", undefined, "Client certificate for kubelets."],
    ["kubelet-client-key", "string", undefined, "Client key for kubelets."],
    [
      "kubelet-preferred-address-types",
      "strings",
      "[Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP]",
      "Node address types tried to reach kubelets, in order.",
    ],
    ["kubelet-timeout", "duration", "5s", "Timeout of kubelet requests."],
    ["kubernetes-service-node-port", "int", undefined, "Node port of the kubernetes Service (0: ClusterIP)."],
    [
      "max-connection-bytes-per-sec",
      "int",
      undefined,
      "Bytes per second each user connection may carry; 0 for no limit.",
    ],
    ["peer-advertise-ip", "string", undefined, "Address other API servers reach this one at."],
    ["peer-advertise-port", "string", undefined, "Port other API servers reach this one at."],
    ["peer-ca-file", "string", undefined, "CA file verifying peer API servers."],
    [
      "proxy-client-cert-file",
      "string",
      undefined,
      "Client certificate for aggregated API servers and webhooks' proxying.",
    ],
    ["proxy-client-key-file", "string", undefined, "Client key for aggregated API servers."],
    ["service-account-signing-endpoint", "string", undefined, "Socket of an external service account token signer."],
    [
      "service-account-signing-key-file",
      "string",
      undefined,
      "Key signing service account tokens (kapi: <cert-dir>/sa.key).",
    ],
    [
      "service-cluster-ip-range",
      "string",
      undefined,
      "Service cluster IP range: one CIDR or two of different families.",
    ],
    ["service-node-port-range", "portRange", "30000-32767", "Node port range: low-high, low+offset or one port."],
  ]),
  section("Global", [
    ["help", "", undefined, "Help for kapi serve."],
    ["version", "version[=true]", undefined, "Print the version (--version=raw: all of version.Info) and quit."],
  ]),
];

/** Deprecated kube-apiserver flags its help hides but still accepts. */
export const hiddenKubeFlags: KubeFlag[] = [
  {
    name: "audit-webhook-batch-initial-backoff",
    type: "duration",
    description: "Deprecated form of --audit-webhook-initial-backoff.",
  },
];

/** One-letter forms, as kube-apiserver has them. */
export const shorthands: Readonly<Record<string, string>> = { v: "v", h: "help" };

const etcd = "kapi keeps objects in its own store (--storage, --data-dir), not in etcd";
const noKubelets = "kapi talks to no kubelets";
const noAggregation = "kapi serves no aggregated API servers";
const noEmulation = "kapi behaves as v1.36 only";
const klog = "kapi logs through its own lines on stderr (--v)";
const noPeers = "kapi runs as a single API server";
const noProfiling = "kapi serves no profiling handlers";
const ownCert = "kapi serves one certificate: --tls-cert-file, or the one it makes under --cert-dir";

/** Why a kube-apiserver flag kapi does not parse has no effect there; printed once at start when given. */
export const noEffect: Readonly<Record<string, string>> = {
  "cors-allowed-origins": "kapi answers no CORS preflight",
  "emulated-version": noEmulation,
  "emulation-forward-compatible": noEmulation,
  "external-hostname": "kapi names its own address in externalized URLs",
  "min-compatibility-version": noEmulation,
  "runtime-config-emulation-forward-compatible": noEmulation,
  "send-retry-after-while-not-ready-once": "kapi serves once it has started",
  "shutdown-watch-termination-grace-period": "kapi ends open watches cleanly as soon as it stops accepting requests",
  "storage-initialization-timeout": etcd,
  "strict-transport-security-directives": "kapi sends no Strict-Transport-Security header",
  "delete-collection-workers": "kapi deletes a collection's objects in one pass",
  "enable-garbage-collector": "kapi's garbage collector is chosen by --controllers",
  "encryption-provider-config": "kapi does not encrypt stored objects",
  "encryption-provider-config-automatic-reload": "kapi does not encrypt stored objects",
  "etcd-cafile": etcd,
  "etcd-certfile": etcd,
  "etcd-count-metric-poll-period": etcd,
  "etcd-db-metric-poll-interval": etcd,
  "etcd-healthcheck-timeout": etcd,
  "etcd-keyfile": etcd,
  "etcd-prefix": etcd,
  "etcd-readycheck-timeout": etcd,
  "etcd-servers": etcd,
  "etcd-servers-overrides": etcd,
  "lease-reuse-duration-seconds": etcd,
  "storage-backend": etcd,
  "storage-media-type": "kapi stores objects as JSON",
  "watch-cache": "kapi always serves watches from its watch cache",
  "watch-cache-sizes": "kapi's watch cache keeps history by time, not by size",
  "permit-address-sharing": "kapi listens without SO_REUSEADDR",
  "permit-port-sharing": "kapi listens without SO_REUSEPORT",
  "tls-cipher-suites": "kapi uses Node's default TLS cipher suites",
  "tls-curve-preferences": "kapi uses Node's default TLS curves",
  "tls-min-version": "kapi uses Node's default lowest TLS version",
  "tls-sni-cert-key": ownCert,
  "contention-profiling": noProfiling,
  "debug-socket-path": noProfiling,
  profiling: noProfiling,
  "oidc-ca-file": "kapi reads JWT authenticators from --authentication-config only",
  "oidc-client-id": "kapi reads JWT authenticators from --authentication-config only",
  "oidc-groups-claim": "kapi reads JWT authenticators from --authentication-config only",
  "oidc-groups-prefix": "kapi reads JWT authenticators from --authentication-config only",
  "oidc-issuer-url": "kapi reads JWT authenticators from --authentication-config only",
  "oidc-required-claim": "kapi reads JWT authenticators from --authentication-config only",
  "oidc-signing-algs": "kapi reads JWT authenticators from --authentication-config only",
  "oidc-username-claim": "kapi reads JWT authenticators from --authentication-config only",
  "oidc-username-prefix": "kapi reads JWT authenticators from --authentication-config only",
  "allow-metric-labels": "kapi serves its metrics unfiltered",
  "allow-metric-labels-manifest": "kapi serves its metrics unfiltered",
  "disabled-metrics": "kapi serves its metrics unfiltered",
  "log-flush-frequency": klog,
  "log-json-info-buffer-size": klog,
  "log-json-split-stream": klog,
  "log-text-info-buffer-size": klog,
  "log-text-split-stream": klog,
  "logging-format": klog,
  vmodule: klog,
  "aggregator-reject-forwarding-redirect": noAggregation,
  "coordinated-leadership-lease-duration": noPeers,
  "coordinated-leadership-renew-deadline": noPeers,
  "coordinated-leadership-retry-period": noPeers,
  "enable-aggregator-routing": noAggregation,
  "enable-logs-handler": "kapi serves no /logs",
  "endpoint-reconciler-type": noPeers,
  "event-ttl": "kapi keeps events until they are deleted",
  "kubelet-certificate-authority": noKubelets,
  "kubelet-client-certificate": noKubelets,
  "kubelet-client-key": noKubelets,
  "kubelet-preferred-address-types": noKubelets,
  "kubelet-timeout": noKubelets,
  "kubernetes-service-node-port": "kapi's kubernetes Service is always of type ClusterIP",
  "max-connection-bytes-per-sec": "kapi does not throttle connections",
  "peer-advertise-ip": noPeers,
  "peer-advertise-port": noPeers,
  "peer-ca-file": noPeers,
  "proxy-client-cert-file": noAggregation,
  "proxy-client-key-file": noAggregation,
  "service-account-signing-endpoint": "kapi signs service account tokens itself",
};
