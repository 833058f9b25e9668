import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

const root = path.resolve(__dirname, "..", "..");

const readme = () => fs.readFileSync(path.join(root, "README.md"), "utf8");

/**
 * The one fenced block of language `lang` (```python, ```go, ...) of a Markdown file of this
 * checkout (`file` relative to its root: `docs/other-languages.md`) that contains `marker`.
 */
export function docBlock(file: string, lang: string, marker: string): string {
  const text = fs.readFileSync(path.resolve(root, file), "utf8");
  const blocks = [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))]
    .map((m) => m[1])
    .filter((b) => b.includes(marker));
  if (blocks.length !== 1)
    throw new Error(`expected one ${lang} block of ${file} containing ${marker}, found ${blocks.length}`);
  return blocks[0];
}

/** The one ```ts block of README.md that contains `marker`. */
export function readmeBlock(marker: string): string {
  return docBlock("README.md", "ts", marker);
}

/** The fenced block of README.md under a line that starts with `file` in backquotes and ends with a colon. */
export function readmeFile(file: string): string {
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp("^`" + escaped + "`[^\\n]*:\\n\\n```\\w+\\n([\\s\\S]*?)```", "m").exec(readme());
  if (!match) throw new Error(`README.md has no block for ${file}`);
  return match[1];
}

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
    const host = {
      getCanonicalFileName: (f: string) => f,
      getCurrentDirectory: () => root,
      getNewLine: () => "\n",
    };
    throw new Error(`README block ${name} does not type-check:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
  program.emit();
  return path.join(dir, `${name}.js`);
}
