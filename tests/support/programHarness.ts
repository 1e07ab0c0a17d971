// The suite deploys programs with the testing kit users get (bunnynet-emulator/testing), so every test exercises it.
export * from "bunnynet-emulator/dist/testing/programHarness.js";
export * from "bunnynet-emulator/dist/testing/deploymentTypes.js";
export { CheckFailedError, CommandFailedError } from "bunnynet-emulator/dist/testing/engineMessages.js";
