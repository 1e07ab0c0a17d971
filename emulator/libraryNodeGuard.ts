// Imported first by the package root and the testing kit: see refuseUnsupportedNode.
import { refuseUnsupportedNode } from "bunnynet-pulumi/dist/supportedNode.js";

refuseUnsupportedNode("bunnynet-emulator", "throw");
