/** Where every provider text points: keep this path and `providerFor`'s signature, state of every version names it. */
export const ENTRY_POINT = "pulumi-bunnynet/dist/provider/pulumi/entry.js";

/**
 * The `__provider` text of one resource type: the code the engine's dynamic-provider host loads (require-from-string,
 * then `.handler()`) to serve that type, stored in the inputs and outputs of every resource of the type.
 *
 * It is written here rather than produced by Pulumi's closure serializer: all it does is `require` this package's
 * compiled entry point, resolved from the Pulumi project's directory (the plugin's working directory), and ask it for
 * the type's implementation. So the text holds no key, no settings and no code of ours (refresh and destroy run the
 * installed version, never code frozen in old state), is about 300 bytes instead of the serializer's 2.4 KB (every
 * RPC carries it several times), and programs never load the serializer (which loads the TypeScript compiler).
 * A project that installs the package finds it in node_modules; this repository finds itself through "exports".
 */
export function providerText(type: string): string {
  if (!/^[A-Z][A-Za-z]*$/.test(type)) throw new Error(`not a resource type name: ${JSON.stringify(type)}`);
  return [
    "exports.handler = function () {",
    '  const projectRequire = require("node:module").createRequire(require("node:path").join(process.cwd(), "index.js"));',
    `  return projectRequire(${JSON.stringify(ENTRY_POINT)}).providerFor(${JSON.stringify(type)});`,
    "};",
    "",
  ].join("\n");
}
