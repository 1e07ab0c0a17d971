/**
 * bunnynet-emulator/testing: test your own Pulumi programs offline, the way this project tests its own.
 * Start the emulator in your test process, point the provider at it, deploy, and read the request log.
 */
export { startEmulator, type TestEmulator } from "./emulator";
