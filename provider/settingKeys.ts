import { nearestName } from "./nearestName";
import { SETTING_SOURCES, type SettingsOrigin } from "./settings";

/**
 * The keys a provider's configuration may hold, and what to say of one it may not: a misspelt key
 * (`bunnynet:apiKeyy`) would otherwise be ignored without a word, its setting falling back to the environment or a
 * default (another account, the real API instead of a test server).
 *
 * Besides the settings (SETTING_SOURCES), the engine puts keys of its own among a provider's inputs (pulumi/pulumi
 * v3.276.0, pkg/resource/deploy/providers/registry.go): `version`, at the root (:55-59 `versionKey`, :166-173
 * `SetProviderVersion`, which default_providers.go:148-150 calls for every default provider), and `pluginDownloadURL`,
 * at the root in the inputs of engines older than `__internal` (:88-99 `getInternal` falls back to the root).
 * `__internal` itself is removed before CheckConfig and Configure (:454-464 `FilterProviderConfig`, :679-680).
 */
export const ENGINE_INPUT_KEYS: readonly string[] = ["version", "pluginDownloadURL"];

/** The settings' keys, without namespace (`apiKey`, `apiUrl`…). */
const SETTING_KEYS: readonly string[] = Object.values(SETTING_SOURCES).map((s) => s.config);

/** Where the keys were written, for the message: stack config, or an explicit provider's arguments. */
export interface KeysPlace {
  origin: SettingsOrigin;
  providerName?: string;
}

/**
 * The reason each key (without namespace) that is neither a setting nor `alsoAccepted` is refused, naming it and the
 * setting it most likely meant, or every setting when none is near.
 */
export function unknownSettingKeys(keys: readonly string[], alsoAccepted: readonly string[], place: KeysPlace): string[] {
  const accepted = new Set([...SETTING_KEYS, ...alsoAccepted]);
  return keys.filter((key) => !accepted.has(key)).map((key) => unknownKeyReason(key, place));
}

function unknownKeyReason(key: string, place: KeysPlace): string {
  const meant = nearestName(key, SETTING_KEYS);
  if (place.origin === "provider") {
    const provider = `bunnynet.Provider ${JSON.stringify(place.providerName ?? "")}`;
    return meant ? `${key} is no argument of ${provider}: did you mean ${meant}?` : `${key} is no argument of ${provider}: its arguments are ${SETTING_KEYS.join(", ")}`;
  }
  const label = (k: string) => `bunnynet:${k}`;
  const remove = `(\`pulumi config rm ${label(key)}\` removes it)`;
  return meant
    ? `${label(key)} is not a setting of bunnynet: did you mean ${label(meant)}? ${remove}`
    : `${label(key)} is not a setting of bunnynet: the settings are ${SETTING_KEYS.map(label).join(", ")} ${remove}`;
}
