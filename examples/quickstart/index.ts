// The Pulumi entry point: the program's outputs become the stack's outputs.
import { quickstart } from "./program";

export = quickstart();
