// A CustomResourceDefinition whose spec keeps whatever it is given (x-kubernetes-preserve-unknown-fields), for
// tests that need custom resources of any shape or depth.
export function openSpecDefinition(group: string, plural: string, kind: string): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
            },
          },
        },
      ],
    },
  };
}
