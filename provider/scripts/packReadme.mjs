// Writes the package's README.md and CHANGELOG.md at pack time (`prepack`), from the repository's. The registry shows
// the README without the repository beside it, so every link to a repository file (`docs/…`, `examples/…`,
// `emulator/README.md`, `CONTRIBUTING.md`) is made absolute, on the repository named in package.json; links to a
// section of the README itself (`#…`) and absolute links stay as they are.
//
// Usage: node scripts/packReadme.mjs [outDir]   (outDir defaults to the package's directory; run from anywhere)
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = join(packageDir, "..");

/** `git+https://github.com/o/r.git` → `https://github.com/o/r/blob/main/`. */
function repositoryBase() {
  const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  const url = String(pkg.repository?.url ?? pkg.repository ?? "")
    .replace(/^git\+/, "")
    .replace(/\.git$/, "");
  if (!/^https:\/\/github\.com\/[^/]+\/[^/]+$/.test(url)) throw new Error(`packReadme: package.json's repository is not a GitHub URL: ${url}`);
  return `${url}/blob/main/`;
}

/** The text with every relative Markdown link made absolute on `base` (a link in a code block has no `](` form here). */
export function absoluteLinks(text, base) {
  return text.replace(/\]\((?!https?:|mailto:|#)(?:\.\/)?([^)\s]+)\)/g, (_link, target) => `](${base}${target})`);
}

const outDir = process.argv[2] ?? packageDir;
const base = repositoryBase();
writeFileSync(join(outDir, "README.md"), absoluteLinks(readFileSync(join(repoRoot, "README.md"), "utf8"), base));
writeFileSync(join(outDir, "CHANGELOG.md"), absoluteLinks(readFileSync(join(repoRoot, "CHANGELOG.md"), "utf8"), base));
