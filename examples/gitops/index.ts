// The Pulumi entry point: the program's outputs become the stack's outputs.
import { edge } from "./program";

export = edge();
