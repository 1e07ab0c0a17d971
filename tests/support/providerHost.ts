import { resolve } from "node:path";

// The suite drives the provider with the testing kit users get (bunnynet-emulator/testing), so every test exercises it.
export * from "bunnynet-emulator/dist/testing/providerHost.js";

/** The repository root: the Pulumi project of the quickstart (Pulumi.yaml), and the directory the suite runs in. */
export const REPO_ROOT = resolve(__dirname, "..", "..", "..");
