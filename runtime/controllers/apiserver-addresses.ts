// Which apiservers the `default/kubernetes` Endpoints list. kube's lease reconciler keeps one address per
// live apiserver (each renews a short-lived record of its advertise address); a single server lists its own
// address alone. The kubernetes Service controller asks this source only, so a shared source (several kapi
// replicas, each recording its address) can take the single server's place without changing the controller.
export interface ApiServerAddresses {
  /** The advertise addresses of the live apiservers, this one's included, sorted. */
  current(): Promise<string[]>;
}

/** One apiserver: its own advertise address (kube's "none"-lease single-master behaviour). */
export function ownAddress(advertiseAddress: string): ApiServerAddresses {
  return { current: async () => [advertiseAddress] };
}
