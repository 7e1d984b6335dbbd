// The admin kubeconfig: one cluster, one user, one current context, all named `kapi`. The user carries a
// client certificate (O=system:masters) when the server speaks TLS, and the admin bearer token otherwise.

export interface KubeconfigInput {
  server: string;
  /** PEM of the CA to trust; absent for plain HTTP. */
  caCert?: string;
  /** The admin's credential: a bearer token, or a client certificate and its key (PEM). */
  credential: { token: string } | { cert: string; key: string };
}

const base64 = (pem: string) => Buffer.from(pem).toString("base64");

export function renderKubeconfig(input: KubeconfigInput): string {
  const ca = input.caCert === undefined ? "" : `    certificate-authority-data: ${base64(input.caCert)}\n`;
  const credential =
    "token" in input.credential
      ? `    token: ${input.credential.token}\n`
      : `    client-certificate-data: ${base64(input.credential.cert)}\n    client-key-data: ${base64(input.credential.key)}\n`;
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
${credential}`;
}
