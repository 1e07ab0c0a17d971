/**
 * Imported first by the package's entry points (the library root and the provider entry), so that an unsupported
 * Node.js fails with one clear sentence before undici is loaded. The CLI has its own guard that exits instead.
 */
import { unsupportedNodeReason } from "./supportedNode";

const reason = unsupportedNodeReason();
if (reason) throw new Error(reason);
