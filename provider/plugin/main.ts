/**
 * The plugin process's entry point (bundled into dist/pulumi-plugin/ by scripts/buildPlugin.mjs). The Node.js check is
 * imported first: the bundle runs modules in import order, and the server's imports load undici, which fails on an
 * older Node before any check of its own (issue 44).
 */
import "./nodeGuard";
import { engineAddressOf } from "./engineWatch";
import { serve } from "./server";

serve(engineAddressOf(process.argv.slice(2))).catch((e: unknown) => {
  process.stderr.write(`pulumi-resource-bunnynet: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
