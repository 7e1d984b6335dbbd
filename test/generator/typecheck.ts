// Typechecks a few files with the repository's compiler options (TypeScript's API, no tsc process), for tests
// of generated code: the messages of every diagnostic, so a test expects [].
import ts from "typescript";

export function typecheckFiles(rootFiles: string[], configPath: string, overrides: ts.CompilerOptions = {}): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram(rootFiles, { ...config.options, noEmit: true, ...overrides });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}
