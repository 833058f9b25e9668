/**
 * The programs the docs show, read from the checkout's Markdown files: by the tests that run them
 * and by `npm run bench -- --only bad-days`, so that both run the very same blocks.
 */
import * as fs from "fs";
import * as path from "path";

/** The checkout, wherever this file was compiled to. */
export const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "scripts", "pulumi-engine.sh")) && dir !== path.dirname(dir))
    dir = path.dirname(dir);
  return dir;
})();

/**
 * The one fenced block of language `lang` (```python, ```go, ...) of a Markdown file of this
 * checkout (`file` relative to its root: `docs/other-languages.md`) that contains `marker`.
 */
export function docBlock(file: string, lang: string, marker: string): string {
  const text = fs.readFileSync(path.resolve(ROOT, file), "utf8");
  const blocks = [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))]
    .map((m) => m[1])
    .filter((b) => b.includes(marker));
  if (blocks.length !== 1)
    throw new Error(`expected one ${lang} block of ${file} containing ${marker}, found ${blocks.length}`);
  return blocks[0];
}

/** The one ```ts block of README.md that contains `marker`. */
export const readmeBlock = (marker: string): string => docBlock("README.md", "ts", marker);

/** The fenced block of README.md under a line that starts with `file` in backquotes and ends with a colon. */
export function readmeFile(file: string): string {
  const text = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp("^`" + escaped + "`[^\\n]*:\\n\\n```\\w+\\n([\\s\\S]*?)```", "m").exec(text);
  if (!match) throw new Error(`README.md has no block for ${file}`);
  return match[1];
}
