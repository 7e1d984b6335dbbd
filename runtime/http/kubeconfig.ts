// The admin kubeconfig: one cluster, one bearer-token user, one current context, all named `kapi`.

export interface KubeconfigInput {
  server: string;
  token: string;
  /** PEM of the CA to trust; absent for plain HTTP. */
  caCert?: string;
}

export function renderKubeconfig(input: KubeconfigInput): string {
  const ca =
    input.caCert === undefined
      ? ""
      : `    certificate-authority-data: ${Buffer.from(input.caCert).toString("base64")}\n`;
  return `apiVersion: v1
kind: Config
clusters:
- name: kapi
  cluster:
    server: ${input.server}
${ca}contexts:
- name: kapi
  context:
    cluster: kapi
    user: kapi-admin
current-context: kapi
users:
- name: kapi-admin
  user:
    token: ${input.token}
`;
}
