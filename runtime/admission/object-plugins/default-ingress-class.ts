// kube's DefaultIngressClass admission: an Ingress created without `spec.ingressClassName` and without the
// deprecated `kubernetes.io/ingress.class` annotation gets the default IngressClass.
import { builtinKind } from "../../registry/kinds.js";
import type { ResourceApi } from "../../resources/resource-api.js";
import type { AdmissionPlugin } from "../admission.js";
import { admissionForbidden } from "../admission-forbidden.js";
import { defaultClassName } from "./default-class.js";
import { isMainResource } from "./resource-match.js";

const ingressClassAnnotation = "kubernetes.io/ingress.class";
const defaultClassAnnotation = "ingressclass.kubernetes.io/is-default-class";

interface IngressShape {
  metadata?: { annotations?: Record<string, string> };
  spec?: { ingressClassName?: string };
}

export function defaultIngressClass(api: ResourceApi): AdmissionPlugin | undefined {
  if (!api.kinds.servesBuiltin("networking.k8s.io", "v1")) return undefined;
  const ingressClasses = builtinKind("networking.k8s.io", "v1", "ingressclasses");
  return {
    name: "DefaultIngressClass",
    async mutate(a) {
      if (a.operation !== "CREATE" || !isMainResource(a, "networking.k8s.io", "ingresses")) return;
      const ingress = a.object as IngressShape | undefined;
      if (ingress === undefined || ingress.spec?.ingressClassName !== undefined) return;
      if (ingress.metadata?.annotations !== undefined && ingressClassAnnotation in ingress.metadata.annotations) return;
      let name: string | undefined;
      try {
        name = await defaultClassName(api, ingressClasses, [defaultClassAnnotation]);
      } catch (error) {
        throw admissionForbidden(a, (error as Error).message);
      }
      if (name !== undefined) ingress.spec = { ...ingress.spec, ingressClassName: name };
    },
  };
}
