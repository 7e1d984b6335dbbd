// jose takes about 60 ms to load and only signing and verifying tokens need it, so it loads on first use
// (every use is asynchronous already).
let loading: Promise<typeof import("jose")> | undefined;

export function joseModule(): Promise<typeof import("jose")> {
  loading ??= import("jose");
  return loading;
}
