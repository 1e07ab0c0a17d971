/**
 * bunnynet-emulator/testing: test your own Pulumi programs offline, the way this project tests its own.
 * Start the emulator in your test process, point the provider at it, deploy, and read the request log.
 */
// First: refuse an unsupported Node.js (node:sqlite, undici) with a clear message.
import "../libraryNodeGuard";
export { startEmulator, type TestEmulator } from "./emulator";
