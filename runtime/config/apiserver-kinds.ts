// The kinds kube's apiserver configuration API registers (k8s.io/apiserver/pkg/apis/apiserver/install): the
// scheme kube-apiserver reads --admission-control-config-file, --authentication-config and
// --authorization-config with. A kind of it that is not the one a flag wants still decodes, and is refused
// after decoding (`unexpected type: *apiserver.TracingConfiguration`).
export const apiserverConfigurationKinds: readonly string[] = [
  "apiserver.k8s.io/v1alpha1/AdmissionConfiguration",
  "apiserver.k8s.io/v1alpha1/EgressSelectorConfiguration",
  "apiserver.k8s.io/v1beta1/EgressSelectorConfiguration",
  ...["v1alpha1", "v1beta1", "v1"].flatMap((version) =>
    ["AuthenticationConfiguration", "AuthorizationConfiguration", "TracingConfiguration"].map(
      (kind) => `apiserver.config.k8s.io/${version}/${kind}`,
    ),
  ),
  "apiserver.config.k8s.io/v1/AdmissionConfiguration",
  "apiserver.config.k8s.io/v1/EncryptionConfiguration",
];
