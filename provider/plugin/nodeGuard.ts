// Imported first by the plugin's entry point (main.ts), so that esbuild's bundle runs it before undici loads (see
// refuseUnsupportedNode): on an older Node the engine shows this sentence instead of a stack trace inside undici.
import { refuseUnsupportedNode } from "../supportedNode";

refuseUnsupportedNode("pulumi-resource-bunnynet", "exit");
