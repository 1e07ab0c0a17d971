// The tests use the testing kit users get (bunnynet-emulator/testing), in the variant that also exposes the
// emulator's internals (store, request log, routes), so the whole suite exercises it.
export { startEmulator, type TestEmulatorWithInternals as TestEmulator } from "bunnynet-emulator/dist/testing/emulator.js";
