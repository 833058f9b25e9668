/**
 * Reads the doc comments of the TypeScript surface (interfaces, classes and their members under
 * src/) with the TypeScript compiler, for the plugin's schema: the docs are written once, on the
 * TypeScript types, and every other language gets the same text.
 */
import * as path from "path";
import * as ts from "typescript";
import type { DocLookup } from "./build-schema";

/** `{@link X}` and `{@link X | text}` become `` `X` `` / `text`: plain Markdown for every language. */
function plainLinks(text: string): string {
  return text.replace(/\{@link\s+([^}|\s]+)\s*(?:\|\s*([^}]*))?\}/g, (_m, name: string, label?: string) =>
    label ? label.trim() : `\`${name}\``,
  );
}

/** A doc lookup over every interface, class and constant declared in `srcDir` (recursively, via its entry). */
export function surfaceDocs(srcDir: string): DocLookup {
  const entry = path.join(srcDir, "index.ts");
  // Only declarations and their doc comments are read: no emit, no type check, default options.
  const program = ts.createProgram([entry, path.join(srcDir, "functions", "index.ts")], {});
  const checker = program.getTypeChecker();
  const decls = new Map<string, ts.NamedDeclaration & { name: ts.Identifier }>();
  const root = path.resolve(srcDir);
  for (const file of program.getSourceFiles()) {
    if (!path.resolve(file.fileName).startsWith(root + path.sep)) continue;
    ts.forEachChild(file, (node) => {
      if ((ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) && node.name)
        decls.set(node.name.text, node as typeof node & { name: ts.Identifier });
      if (ts.isVariableStatement(node))
        for (const d of node.declarationList.declarations)
          if (ts.isIdentifier(d.name)) decls.set(d.name.text, d as typeof d & { name: ts.Identifier });
    });
  }
  const text = (symbol: ts.Symbol | undefined) => {
    if (!symbol) return undefined;
    const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    return doc ? plainLinks(doc) : undefined;
  };
  return (owner, member, tag) => {
    const decl = decls.get(owner);
    if (!decl) return undefined;
    const symbol = checker.getSymbolAtLocation(decl.name) as ts.Symbol;
    if (member === undefined) return text(symbol);
    const type = ts.isVariableDeclaration(decl)
      ? checker.getTypeOfSymbol(symbol)
      : checker.getDeclaredTypeOfSymbol(symbol);
    const prop = checker.getPropertyOfType(type, member);
    if (tag === undefined) return text(prop);
    const found = prop?.getJsDocTags(checker).find((t) => t.name === tag);
    return found?.text ? plainLinks(ts.displayPartsToString(found.text).trim()) : undefined;
  };
}
