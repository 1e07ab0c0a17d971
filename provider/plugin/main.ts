/** The plugin process's entry point (bundled into dist/pulumi-plugin/ by scripts/buildPlugin.mjs). */
import { serve } from "./server";

serve().catch((e: unknown) => {
  process.stderr.write(`pulumi-resource-bunnynet: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
