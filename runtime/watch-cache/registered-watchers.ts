// How many watches the process's watch caches hold, as kube-apiserver's apiserver_registered_watchers gauge
// counts them: a watch that was not released (its client gone, its request over) keeps this above zero.
let registered = 0;

export function registeredWatchers(): number {
  return registered;
}

/** Called by a cache as it registers (+1) or unregisters (-1) a watch. */
export function countWatchers(change: 1 | -1): void {
  registered += change;
}
