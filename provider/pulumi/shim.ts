/** The package's name, as the provider text looks it up in the Pulumi project (the one place it is spelled). */
export const PACKAGE_NAME = "bunnynet-pulumi";
/** The entry point inside the package. Keep this path and `providerFor`'s signature: state of every version names it. */
const ENTRY_SUBPATH = "dist/pulumi/entry.js";
/** Where every provider text points. */
export const ENTRY_POINT = `${PACKAGE_NAME}/${ENTRY_SUBPATH}`;

/**
 * The `__provider` text of one resource type: the code the engine's dynamic-provider host loads (require-from-string,
 * then `.handler()`) to serve that type, stored in the inputs and outputs of every resource of the type.
 *
 * It is written here rather than produced by Pulumi's closure serializer: all it does is find this package's
 * compiled entry point from the plugin's working directory and ask it for the type's implementation. So the text
 * holds no key, no settings and no code of ours (refresh and destroy run the installed version, never code frozen in
 * old state), is a few hundred bytes instead of the serializer's 2.4 KB (every RPC carries it several times), and
 * programs never load the serializer (which loads the TypeScript compiler).
 *
 * The plugin's working directory is the directory of `main` in Pulumi.yaml (pkg/engine/project.go, getPwdMain;
 * the plugin is started there), or the caller's for an Automation API inline program. From there:
 * 1. Node's resolution, which walks up: the project's node_modules, also when `main` is a subdirectory such as dist/;
 *    this repository finds itself through "exports".
 * 2. pnpm's store, where a package that is only a dependency of a dependency lives:
 *    `node_modules/.pnpm/<name>@<version>/node_modules/<name>`, in that directory or any above it (one version only).
 * 3. Otherwise an error naming the directory, the package and the fix (an npm alias is never found: the state names
 *    the package by its own name).
 */
export function providerText(type: string): string {
  if (!/^[A-Z][A-Za-z]*$/.test(type)) throw new Error(`not a resource type name: ${JSON.stringify(type)}`);
  const name = JSON.stringify(PACKAGE_NAME);
  return [
    "exports.handler = function () {",
    `  const path = require("node:path"), fs = require("node:fs"), dir = process.cwd(), name = ${name}, sub = ${JSON.stringify(ENTRY_SUBPATH)};`,
    "  let entry;",
    '  try { entry = require("node:module").createRequire(path.join(dir, "index.js")).resolve(name + "/" + sub); } catch {}',
    "  for (let d = dir; !entry; d = path.dirname(d)) {",
    '    const store = path.join(d, "node_modules", ".pnpm");',
    '    const found = fs.existsSync(store) ? fs.readdirSync(store).filter((v) => v.startsWith(name + "@")) : [];',
    '    if (found.length === 1) entry = path.join(store, found[0], "node_modules", name, sub);',
    "    if (found.length > 1 || d === path.dirname(d)) break;",
    "  }",
    "  if (!entry || !fs.existsSync(entry)) {",
    "    throw new Error(`${name} cannot be found from ${dir} (the directory of main in Pulumi.yaml, where the provider runs): " +
      "add ${name} to the dependencies of that project under its own name (not an npm alias) and install them (npm install ${name})`);",
    "  }",
    `  return require(entry).providerFor(${JSON.stringify(type)});`,
    "};",
    "",
  ].join("\n");
}
