// Imported first by the library's entry points (the package root, the provider entry): see refuseUnsupportedNode.
import { refuseUnsupportedNode } from "./supportedNode";

refuseUnsupportedNode("bunnynet-pulumi", "throw");
