// Imported first by the `bunnynet` command: see refuseUnsupportedNode.
import { refuseUnsupportedNode } from "../supportedNode";

refuseUnsupportedNode("bunnynet", "exit");
