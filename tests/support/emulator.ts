import { startEmulator as startKitEmulator, type TestEmulatorWithInternals } from "bunnynet-emulator/dist/testing/emulator.js";

// The tests use the testing kit users get (bunnynet-emulator/testing), in the variant that also exposes the
// emulator's internals (store, request log, routes), so the whole suite exercises it.
export type { TestEmulatorWithInternals as TestEmulator };

/**
 * The kit's startEmulator in strict mode: a body property the API would silently ignore is refused, so a typo in this
 * repository's client, or a property it sends that bunny.net drops, fails the test that sends it (the kit's users get
 * the lenient, faithful emulator by default; tests/terraform runs bunny.net's Terraform provider against that one).
 */
export function startEmulator(dataPath?: string, options: { strict?: boolean } = {}): Promise<TestEmulatorWithInternals> {
  return startKitEmulator(dataPath, { strict: true, ...options });
}
