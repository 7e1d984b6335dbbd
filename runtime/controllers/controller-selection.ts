// kube-controller-manager's `--controllers`: a comma-separated list where `*` turns on every controller that
// is on by default, `name` turns one on and `-name` off; the first entry naming a controller decides, and
// without `*` only the named ones run. Names are KCM's canonical ones; their old aliases are accepted.

export interface ControllerDescriptor {
  /** KCM's canonical name. */
  name: string;
  aliases: readonly string[];
  /** Runs only when named, not under `*`. */
  disabledByDefault: boolean;
}

/** The kube-controller-manager controllers kapi runs, as KCM names them. */
export const knownControllers: readonly ControllerDescriptor[] = [
  { name: "garbage-collector-controller", aliases: ["garbagecollector"], disabledByDefault: false },
  { name: "namespace-controller", aliases: ["namespace"], disabledByDefault: false },
  { name: "serviceaccount-controller", aliases: ["serviceaccount"], disabledByDefault: false },
  {
    name: "root-ca-certificate-publisher-controller",
    aliases: ["root-ca-cert-publisher"],
    disabledByDefault: false,
  },
  { name: "clusterrole-aggregation-controller", aliases: ["clusterrole-aggregation"], disabledByDefault: false },
  {
    name: "validatingadmissionpolicy-status-controller",
    aliases: ["validatingadmissionpolicy-status"],
    disabledByDefault: false,
  },
  { name: "disruption-controller", aliases: ["disruption"], disabledByDefault: false },
  { name: "replicaset-controller", aliases: ["replicaset"], disabledByDefault: false },
  { name: "replicationcontroller-controller", aliases: ["replicationcontroller"], disabledByDefault: false },
  { name: "deployment-controller", aliases: ["deployment"], disabledByDefault: false },
  { name: "job-controller", aliases: ["job"], disabledByDefault: false },
  { name: "cronjob-controller", aliases: ["cronjob"], disabledByDefault: false },
  { name: "resourcequota-controller", aliases: ["resourcequota"], disabledByDefault: false },
  {
    name: "persistentvolumeclaim-protection-controller",
    aliases: ["pvc-protection"],
    disabledByDefault: false,
  },
  { name: "persistentvolume-protection-controller", aliases: ["pv-protection"], disabledByDefault: false },
  { name: "volumeattributesclass-protection-controller", aliases: [], disabledByDefault: false },
  { name: "certificatesigningrequest-signing-controller", aliases: ["csrsigning"], disabledByDefault: false },
  { name: "certificatesigningrequest-approving-controller", aliases: ["csrapproving"], disabledByDefault: false },
  { name: "bootstrap-signer-controller", aliases: ["bootstrapsigner"], disabledByDefault: true },
  { name: "token-cleaner-controller", aliases: ["tokencleaner"], disabledByDefault: true },
];

/** KCM's default: every controller that is on by default. */
export const defaultControllers: readonly string[] = ["*"];

/**
 * Reads a `--controllers` value: entries trimmed, aliases replaced by canonical names (keeping a leading
 * `-`). Names no controller has are an error listing each, in KCM's words.
 */
export function parseControllers(value: string, known: readonly ControllerDescriptor[] = knownControllers): string[] {
  const canonical = new Map<string, string>();
  for (const controller of known) {
    canonical.set(controller.name, controller.name);
    for (const alias of controller.aliases) canonical.set(alias, controller.name);
  }
  const errors: string[] = [];
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const list = entries.map((entry) => {
    if (entry === "*") return entry;
    const disabled = entry.startsWith("-");
    const bare = disabled ? entry.slice(1) : entry;
    const name = canonical.get(bare);
    if (name === undefined) {
      errors.push(`"${bare}" is not in the list of known controllers`);
      return entry;
    }
    return disabled ? `-${name}` : name;
  });
  if (errors.length === 1) throw new Error(errors[0]);
  if (errors.length > 1) throw new Error(`[${errors.join(", ")}]`);
  return list;
}

/** kube's IsControllerEnabled over a parsed list. */
export function controllerEnabled(name: string, list: readonly string[], disabledByDefault: boolean): boolean {
  let star = false;
  for (const entry of list) {
    if (entry === name) return true;
    if (entry === `-${name}`) return false;
    if (entry === "*") star = true;
  }
  return star && !disabledByDefault;
}
