// What every in-server controller gets from startControllers: when to stop, and where failures go.
export interface ControllerContext {
  signal: AbortSignal;
  log: (message: string, error: unknown) => void;
}
