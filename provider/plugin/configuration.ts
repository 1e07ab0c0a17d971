import { ConfigurationError } from "../http/errors";
import { PROVIDER_NAME_KEY, settingsFromConfig, type EngineConfig } from "../pulumi/session";
import { type Plain, UNKNOWN, sameValue } from "../pulumi/wire";
import { SETTING_SOURCES, type SettingName, resolveSettings, settingLabel } from "../settings";
import { ENGINE_INPUT_KEYS, unknownSettingKeys } from "../settingKeys";

/**
 * The provider's configuration as the plugin receives it. The engine sends the same thing for the default provider and
 * an explicit one: the provider's inputs (pulumi/pulumi sdk/go/common/resource/plugin/provider_plugin.go, Configure:
 * `Args` is the inputs, secrets kept; the deprecated `Variables` map is keyed `bunnynet:config:<key>`). The default
 * provider's inputs are the stack config's `bunnynet:*` keys without the namespace (`apiKey`, `apiUrl`…, and
 * `version`); an explicit provider's are its arguments (`new pulumi.ProviderResource("bunnynet", name, { apiKey })`).
 * ProviderSession reads them as `bunnynet:<key>`, with its BUNNYNET_* environment fallbacks.
 */

/** The config ProviderSession reads, from a provider's inputs; `providerName` set for an explicit provider (its messages name it). */
export function engineConfig(inputs: Plain, providerName: string | undefined): EngineConfig {
  return {
    get(key: string) {
      if (!key.startsWith("bunnynet:")) return undefined;
      const name = key.slice("bunnynet:".length);
      if (name === PROVIDER_NAME_KEY) return providerName;
      const value = inputs[name];
      if (value === undefined || value === null || value === UNKNOWN) return undefined;
      return typeof value === "number" ? value : String(value);
    },
    keys: () => Object.keys(inputs).map((name) => `bunnynet:${name}`),
  };
}

/** An explicit provider's name from its URN (`urn:pulumi:stack::project::pulumi:providers:bunnynet::name`); undefined for a default provider. */
export function explicitProviderName(urn: string | undefined): string | undefined {
  const name = urn?.split("::").pop();
  return name === undefined || name === "" || name.startsWith("default") ? undefined : name;
}

/**
 * CheckConfig: a key that is no setting (`bunnynet:apiKeyy`), naming the setting it most likely meant; then the
 * settings problems ProviderSession would report at the first check (no key anywhere, a URL that is none, a timeout
 * that is no number), each naming the config key. Values are not judged while one is unknown. An unknown key's
 * failure names no property: the engine would print the property's value (pulumi/pulumi v3.276.0
 * pkg/resource/deploy/step_generator.go:3190-3204 `issueCheckFailures`), and a misspelt apiKey holds a key.
 */
export function configFailures(inputs: Plain, providerName: string | undefined): { property: string; reason: string }[] {
  const place = { origin: providerName === undefined ? ("pulumi" as const) : ("provider" as const), providerName };
  const unknownKeys = unknownSettingKeys(Object.keys(inputs), ENGINE_INPUT_KEYS, place);
  if (unknownKeys.length > 0) return unknownKeys.map((reason) => ({ property: "", reason }));
  if (Object.values(inputs).some((v) => v === UNKNOWN)) return [];
  const config = engineConfig(inputs, providerName);
  const settings = settingsFromConfig((name) => config.get(`bunnynet:${name}`));
  try {
    resolveSettings(settings);
    return [];
  } catch (e) {
    if (!(e instanceof ConfigurationError)) throw e;
    const names = Object.keys(SETTING_SOURCES) as SettingName[];
    // The message names the setting in the words of its place (settingLabel); the longest label first (apiUrl is in streamApiUrl).
    const named = names
      .filter((n) => e.message.includes(settingLabel(n, settings.origin)))
      .sort((a, b) => settingLabel(b, settings.origin).length - settingLabel(a, settings.origin).length)[0];
    return [{ property: SETTING_SOURCES[named ?? "apiKey"].config, reason: e.message }];
  }
}

/** DiffConfig: the settings that changed. A changed key or URL updates the provider; nothing replaces it (or its resources). */
export function changedSettings(olds: Plain, news: Plain): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)].filter((k) => k !== "version"));
  return [...keys].filter((k) => !sameValue(olds[k], news[k]));
}
