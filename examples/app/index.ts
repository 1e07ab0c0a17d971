// The Pulumi entry point: the program's outputs become the stack's outputs.
import { app } from "./program";

export = app();
