// Imported first by the `bunnynet-emulator` command: see refuseUnsupportedNode.
import { refuseUnsupportedNode } from "bunnynet-pulumi/dist/supportedNode.js";

refuseUnsupportedNode("bunnynet-emulator", "exit");
