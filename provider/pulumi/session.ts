import { BunnyClient } from "../client";
import { beginDeployment } from "../http/sharedReads";
import { forgetAdoptions } from "./adoption";
import { forgetReplacements } from "./replacements";
import { ConfigurationError } from "../http/errors";
import { SETTING_SOURCES, type SettingName, type SettingsInput, providerKeyLabel, resolveSettings } from "../settings";
import { ENGINE_INPUT_KEYS, unknownSettingKeys } from "../settingKeys";

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
  /** Every key given, with its namespace (`bunnynet:apiKey`, `aws:region`); the plugin's config has it. */
  keys?(): string[];
}

/**
 * The keys of the config given, or undefined where they cannot be known. The SDK's dynamic-provider host hands
 * `configure` a Config that keeps the ConfigureRequest's args, every key with its namespace, as `rawConfig`
 * (@pulumi/pulumi 3.270.0 cmd/dynamic-provider/index.js:96-107 `configure` and :73-76 `getProvider`; config.js:18-21): the
 * engine sends a dynamic provider the whole stack config (pulumi/pulumi v3.276.0 pkg/resource/deploy/target.go:52-67,
 * "For dynamic providers, we always pass the full configuration", namespaces kept).
 */
function configKeys(config: EngineConfig): string[] | undefined {
  if (config.keys) return config.keys();
  const raw = (config as { rawConfig?: unknown }).rawConfig;
  return typeof raw === "object" && raw !== null ? Object.keys(raw) : undefined;
}

/** The `bunnynet:` keys of the config that are no setting, each with the setting it most likely meant. */
function unknownKeysOf(config: EngineConfig, input: SettingsInput): string[] {
  const keys = (configKeys(config) ?? []).filter((k) => k.startsWith("bunnynet:")).map((k) => k.slice("bunnynet:".length));
  return unknownSettingKeys(keys, [PROVIDER_NAME_KEY, ...ENGINE_INPUT_KEYS], { origin: input.origin ?? "pulumi", providerName: input.providerName });
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
  private unknownKeys: string[] = [];
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
    this.unknownKeys = unknownKeysOf(config, this.input);
    this.cached = undefined;
    this.configured = true;
    beginDeployment();
    forgetAdoptions();
    forgetReplacements();
  }

  /**
   * What is wrong with the settings (a `bunnynet:` key that is no setting, no key anywhere, a URL that is none), with
   * the fix; undefined when nothing is, or before Configure (the engine configures a provider before its first Check:
   * pkg/resource/deploy/providers/registry.go).
   */
  settingsProblem(): string | undefined {
    if (!this.configured) return undefined;
    if (this.unknownKeys.length > 0) return this.unknownKeys.join("; ");
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
