// The tests use the testing kit users get (bunnynet-emulator/testing), so the whole suite exercises it.
export { startEmulator, type TestEmulator } from "bunnynet-emulator/testing";
