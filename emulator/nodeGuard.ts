/** Imported first by the emulator's command: on an unsupported Node.js, one sentence on stderr and exit 1. */
import { unsupportedNodeReason } from "bunnynet-pulumi/dist/supportedNode.js";

const reason = unsupportedNodeReason("bunnynet-emulator");
if (reason) {
  process.stderr.write(`bunnynet-emulator: ${reason}\n`);
  process.exit(1);
}
