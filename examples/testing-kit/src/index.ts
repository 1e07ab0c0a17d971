// The Pulumi entry point: the program's outputs become the stack's outputs.
import { site } from "./program";

export = site();
