#!/usr/bin/env bash
# Records kube-apiserver's Table answers and `kubectl get` (plain and -o wide) texts for the objects of
# test/data/printers/objects.yaml, for each resource test/data/printers/resources.txt lists, into
# test/data/printers/<group>.<version>.<resource>.{json,txt,wide.txt}. Namespaced objects go to a fresh namespace
# recorded as c-print; ages and uids are left for the test to normalize.
# Usage: KUBECONFIG=<reference kubeconfig> scripts/printers/record-tables.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
data="$here/test/data/printers"
# As long as "c-print", so that replacing it keeps the columns of the texts aligned.
ns=c-p$(printf %04d $((RANDOM % 10000)))
server=$(kubectl config view --minify --raw -o jsonpath='{.clusters[0].cluster.server}')
token=$(cat "${REFERENCE_TOKEN:-$HOME/.cache/kapi-reference/admin.token}")
objects() { sed "s/namespace: c-print/namespace: $ns/" "$data/objects.yaml"; }
cleanup() {
  objects | kubectl delete -f - --wait=false >/dev/null 2>&1 || true
  # Nothing on a bare kube-apiserver removes the volume protection finalizers.
  kubectl patch pv c-pv --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || true
  kubectl patch pvc c-pvc -n "$ns" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || true
  # No kubelet ends the pod and no namespace controller empties the namespace: force both.
  kubectl delete pods --all -n "$ns" --grace-period=0 --force >/dev/null 2>&1 || true
  kubectl delete serviceaccounts --all -n "$ns" >/dev/null 2>&1 || true
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true
  kubectl get namespace "$ns" -o json | jq '.spec.finalizers = []' |
    kubectl replace --raw "/api/v1/namespaces/$ns/finalize" -f - >/dev/null 2>&1 || true
}
trap cleanup EXIT
kubectl create namespace "$ns" >/dev/null
# Without kube-controller-manager nothing creates the default service account pods need.
kubectl create serviceaccount default -n "$ns" >/dev/null
objects | kubectl create -f - >/dev/null
kubectl get --raw "/api/v1/namespaces/$ns/pods/c-pod" | jq --slurpfile s "$data/pod-status.json" '.status = $s[0]' |
  kubectl replace --subresource=status -f - >/dev/null
accept='Accept: application/json;as=Table;v=v1;g=meta.k8s.io'
grep -v '^#' "$data/resources.txt" | while read -r prefix resource name; do
  gv=${prefix#api/}
  gv=${gv#apis/}
  file="$data/${gv//\//.}.$resource"
  if [ -n "$name" ]; then
    url="$server/$prefix/$resource?fieldSelector=metadata.name%3D$name"
    args=("$resource.${gv#*/}.${gv%/*}" "$name")
  else
    url="$server/$prefix/namespaces/$ns/$resource"
    args=("$resource.${gv#*/}.${gv%/*}" -n "$ns")
  fi
  [ "$gv" = v1 ] && args[0]=$resource
  curl -sfk -H "$accept" -H "Authorization: Bearer $token" "$url" |
    jq '{columnDefinitions, rows: [.rows[] | {cells, conditions}]}' | sed "s/$ns/c-print/g" >"$file.json"
  kubectl get "${args[@]}" | sed "s/$ns/c-print/g" >"$file.txt"
  kubectl get "${args[@]}" -o wide | sed "s/$ns/c-print/g" >"$file.wide.txt"
done
