import { BunnyClient } from "../client";
import { beginDeployment } from "../http/sharedReads";
import { forgetAdoptions } from "./adoption";
import { forgetReplacements } from "./replacements";
import { ConfigurationError } from "../http/errors";
import { SETTING_SOURCES, type SettingName, type SettingsInput, providerKeyLabel, resolveSettings } from "../settings";

/**
 * The config key an explicit `bunnynet.Provider` adds to its inputs (its resource name): the plugin process it
 * configures then speaks of that provider's arguments instead of stack config.
 */
export const PROVIDER_NAME_KEY = "provider";

/**
 * Reads every `bunnynet:*` setting through `get(name)` (name without namespace); unset ones fall back to BUNNYNET_*
 * later. Its messages speak of stack config, or of the arguments of the explicit provider the config came from.
 */
export function settingsFromConfig(get: (name: string) => string | number | undefined): SettingsInput {
  const providerName = get(PROVIDER_NAME_KEY);
  const input: SettingsInput = providerName === undefined ? { origin: "pulumi" } : { origin: "provider", providerName: String(providerName) };
  for (const name of Object.keys(SETTING_SOURCES) as SettingName[]) {
    const value = get(SETTING_SOURCES[name].config);
    if (value !== undefined && value !== "") input[name] = value;
  }
  return input;
}

/**
 * The part of the engine's ConfigureRequest the provider reads: the whole decrypted stack config for the default
 * provider, or an explicit provider's inputs (numbers stay numbers there).
 */
export interface EngineConfig {
  get(key: string): string | number | undefined;
}

/**
 * Settings and client of one provider instance in the plugin process.
 *
 * `configure` only records the config: the engine caches the provider before configure finishes, and a
 * configure that threw would leave a cached provider that never got its settings. The client (and a
 * missing-key ConfigurationError) comes on first use: `check` reports it as a failure, with the fix, at preview.
 *
 * The engine starts one plugin process per deployment and configures each provider in it once, so a Configure
 * also starts a new scope for the read cache (see http/sharedReads.ts), which the client turns on, and for the
 * objects adopted (see adoption.ts, `adoptedHere`).
 */
export class ProviderSession {
  private input: SettingsInput = {};
  private cached?: BunnyClient;
  private configured = false;

  configure(config: EngineConfig): void {
    this.input = settingsFromConfig((name) => {
      try {
        return config.get(`bunnynet:${name}`);
      } catch {
        // A host that never received the engine's config (no Configure call) has none to read: env vars apply.
        return undefined;
      }
    });
    this.cached = undefined;
    this.configured = true;
    beginDeployment();
    forgetAdoptions();
    forgetReplacements();
  }

  /**
   * What is wrong with the settings (no key anywhere, a URL that is none), with the fix; undefined when nothing is,
   * or before Configure (the engine configures a provider before its first Check: pkg/resource/deploy/providers/registry.go).
   */
  settingsProblem(): string | undefined {
    if (!this.configured) return undefined;
    try {
      this.client();
      return undefined;
    } catch (e) {
      if (e instanceof ConfigurationError) return e.message;
      throw e;
    }
  }

  /** Where the key is set, in the words of that place: `bunnynet:apiKey`, or an explicit provider's `apiKey`. */
  keySetting(): string {
    return this.input.origin === "provider" ? providerKeyLabel(this.input.providerName) : "bunnynet:apiKey";
  }

  /** Config values first, then BUNNYNET_* environment variables of the plugin process, then defaults. */
  client(): BunnyClient {
    this.cached ??= new BunnyClient({ ...resolveSettings(this.input), readCache: true });
    return this.cached;
  }
}
