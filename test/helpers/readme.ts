import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

const root = path.resolve(__dirname, "..", "..");

export { docBlock, readmeBlock, readmeFile } from "../../scripts/doc-blocks";

/**
 * Type-checks a README block against the built package (as a user's file would be) and writes it,
 * compiled to CommonJS, under `build/readme/` inside this package, so that
 * `require("pulumi-blockchain-nodes")` resolves to the package itself. Returns the JS file's path.
 */
export function compileReadmeBlock(name: string, code: string): string {
  const dir = path.join(root, "build", "readme");
  fs.mkdirSync(dir, { recursive: true });
  const source = path.join(dir, `${name}.ts`);
  fs.writeFileSync(source, code);
  const program = ts.createProgram([source], {
    strict: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    esModuleInterop: true,
    skipLibCheck: true,
    rootDir: dir,
    outDir: dir,
    types: ["node"],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) {
    const report = ts.formatDiagnostics(diagnostics, ts.createCompilerHost({}));
    throw new Error(`README block ${name} does not type-check:\n${report}`);
  }
  program.emit();
  return path.join(dir, `${name}.js`);
}
