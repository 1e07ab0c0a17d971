import type * as pulumi from "@pulumi/pulumi";
import type * as entry from "./entry";

/**
 * The provider object Pulumi serializes into `__provider` for one resource type.
 *
 * Its text holds only the type name and a `require` of this package's compiled entry point, resolved
 * from the Pulumi project's directory (the plugin's working directory). So the text carries no key,
 * settings, zod or undici, stays small, and refresh/destroy run the installed version of the package,
 * not code frozen in old state. Keep every method free of captured values other than `type`, and keep
 * comments outside the function bodies (they are serialized too).
 *
 * Resolution goes through `createRequire(<project dir>/index.js)`: a project that installs the package finds
 * it in node_modules, and this repository (whose root is the project in tests) finds itself through "exports".
 */
export function providerShim(type: string): pulumi.dynamic.ResourceProvider {
  const load = (): ReturnType<typeof entry.providerFor> => {
    const path = require("node:path");
    const projectRequire = require("node:module").createRequire(path.join(process.cwd(), "index.js"));
    return projectRequire("pulumi-bunnynet/dist/provider/pulumi/entry.js").providerFor(type);
  };
  return {
    configure: async (req) => load().configure(req),
    check: async (olds, news) => load().check(olds, news),
    diff: async (id, olds, news) => load().diff(id, olds, news),
    create: async (inputs) => load().create(inputs),
    read: async (id, props) => load().read(id, props),
    update: async (id, olds, news) => load().update(id, olds, news),
    delete: async (id, props) => load().delete(id, props),
  };
}
