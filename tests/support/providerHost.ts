import { resolve } from "node:path";
import { ProviderHost } from "bunnynet-emulator/dist/testing/providerHost.js";
import { type Secret, secret } from "bunnynet-emulator/dist/testing/wire.js";
import { STORAGE_API_PATH } from "bunnynet-emulator/dist/testing/stackConfig.js";
import { startEmulator, type TestEmulator } from "./emulator";

// The suite drives the provider with the testing kit users get (bunnynet-emulator/testing), so every test exercises it.
export * from "bunnynet-emulator/dist/testing/providerHost.js";
export { type HostOptions } from "bunnynet-emulator/dist/testing/pluginProcess.js";
export { pluginDirectory } from "bunnynet-emulator/dist/testing/projectPaths.js";
export { named, type CheckFailure } from "bunnynet-emulator/dist/testing/engineMessages.js";
export { Secret, UNKNOWN_VALUE, secret, toWire, type Plain } from "bunnynet-emulator/dist/testing/wire.js";

/** The repository root: the Pulumi project of the quickstart (Pulumi.yaml), and the directory the suite runs in. */
export const REPO_ROOT = resolve(__dirname, "..", "..", "..");

/** Provider config for a test's emulator, as the engine sends it (the key a secret); retries kept short. */
export function hostConfig(emu: TestEmulator, extra: Record<string, string> = {}): Record<string, string | Secret<string>> {
  return {
    "bunnynet:apiKey": secret(emu.fixtures.accessKey),
    "bunnynet:apiUrl": emu.url,
    "bunnynet:streamApiUrl": emu.url,
    "bunnynet:storageApiUrl": `${emu.url}${STORAGE_API_PATH}`,
    "bunnynet:maxRetries": "1",
    ...extra,
  };
}

/** A test file's emulator and a provider host configured for it (start in `before`, stop in `after`). */
export async function startEmulatorAndHost(): Promise<{ emu: TestEmulator; host: ProviderHost }> {
  const emu = await startEmulator();
  const host = await ProviderHost.start();
  await host.configure(hostConfig(emu));
  return { emu, host };
}

export async function stopEmulatorAndHost(emu: TestEmulator | undefined, host: ProviderHost | undefined): Promise<void> {
  await host?.stop();
  await emu?.stop();
}
