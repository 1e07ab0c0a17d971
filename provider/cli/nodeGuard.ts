/** Imported first by the CLI: on an unsupported Node.js, one sentence on stderr and exit 1, not a stack trace from undici. */
import { unsupportedNodeReason } from "../supportedNode";

const reason = unsupportedNodeReason();
if (reason) {
  process.stderr.write(`bunnynet: ${reason}\n`);
  process.exit(1);
}
