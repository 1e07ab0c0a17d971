import * as pulumi from "@pulumi/pulumi";
import { PROVIDER_NAME_KEY } from "./pulumi/session";
import { SETTING_SOURCES, type SettingName, type SettingsInput } from "./settings";

/**
 * An explicit provider: one bunny.net account (its key and settings) for the resources and lookups given it as
 * `{ provider }`, so that one program reaches several accounts. Without one, resources and lookups use the stack
 * config (`bunnynet:apiKey`, then BUNNYNET_API_KEY).
 *
 * How the engine runs it (pulumi/pulumi, files under pkg/ unless said otherwise):
 * - It is a provider resource of package `pulumi-nodejs`, the package of every dynamic resource's token, so the SDK
 *   sends it as the resource's provider reference (sdk/nodejs resource.ts, `opts.provider` of the same package). The
 *   engine starts one plugin process per provider resource (host/host.go, defaultHost.Provider) and configures it
 *   with the provider's inputs instead of the stack config (resource/deploy/providers/registry.go, Create and Update:
 *   Configure with the inputs), which the dynamic host hands to `configure` (@pulumi/pulumi cmd/dynamic-provider,
 *   configure: the ConfigureRequest's args, secrets unwrapped). Keys carry the namespace (`bunnynet:apiKey`), as
 *   the stack config's do: `Config.get` prefixes the project's name otherwise (cmd/dynamic-provider/config.js).
 * - The key is an input marked secret: the state stores the provider's inputs and outputs encrypted under it.
 * - The dynamic host implements neither CheckConfig nor DiffConfig: the engine takes the inputs as they are and reads
 *   "unknown, nothing to replace" (sdk/go/common/resource/plugin/provider_plugin.go, CheckConfig and DiffConfig on
 *   Unimplemented), so a changed key or URL updates the provider and replaces none of its resources; moving a
 *   resource to another provider replaces nothing either (resource/deploy/step_generator.go, providerChanged).
 * - Refresh and destroy configure it from the inputs saved in state at the last `up` (registry.go, NewRegistry and
 *   Same: the old state's inputs), as the default provider's saved stack config.
 *
 * Lookups given `{ provider }` run in the program with this provider's settings (dynamic providers serve no invokes).
 */
export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs, opts?: pulumi.ResourceOptions) {
    if (args?.apiKey === undefined || args.apiKey === null) {
      throw new Error(`bunnynet.Provider ${name}: apiKey is required (the account's API key, e.g. config.requireSecret("prodApiKey"))`);
    }
    const inputs: pulumi.Inputs = { [`bunnynet:${PROVIDER_NAME_KEY}`]: name };
    for (const setting of Object.keys(SETTING_SOURCES) as SettingName[]) {
      const value = args[setting];
      if (value === undefined) continue;
      inputs[`bunnynet:${SETTING_SOURCES[setting].config}`] = setting === "apiKey" ? pulumi.secret(value) : value;
    }
    super("pulumi-nodejs", name, inputs, opts);
    settingsOfProvider.set(
      this,
      pulumi.output(args).apply((given) => {
        const settings: SettingsInput = { origin: "provider", providerName: name };
        for (const setting of Object.keys(SETTING_SOURCES) as SettingName[]) settings[setting] = given[setting] ?? undefined;
        return settings;
      }),
    );
  }
}

/** The account a `bunnynet.Provider` reaches, and every setting the stack config takes (see "Configure"). */
export interface ProviderArgs {
  /** The account's API key (Account settings → API key). Stored as a secret, whatever the program passes. */
  apiKey: pulumi.Input<string>;
  /** Core, Shield and Edge Scripting; default `https://api.bunny.net`. */
  apiUrl?: pulumi.Input<string>;
  /** Stream (video libraries); default `https://video.bunnycdn.com`. */
  streamApiUrl?: pulumi.Input<string>;
  /** Magic Containers; default `<apiUrl>/mc`. */
  containersApiUrl?: pulumi.Input<string>;
  /** CDN logging; default `https://logging.bunnycdn.com`. */
  loggingApiUrl?: pulumi.Input<string>;
  /** The Storage API; unset, each storage zone's own hostname. */
  storageApiUrl?: pulumi.Input<string>;
  /** Per-attempt timeout in milliseconds; default 30,000. */
  timeoutMs?: pulumi.Input<number>;
  /** Retries after the first attempt, for requests that are safe to repeat; default 5. */
  maxRetries?: pulumi.Input<number>;
  /** The largest JSON answer read, in bytes. */
  maxResponseBytes?: pulumi.Input<number>;
  /** The most pages one listing may take. */
  maxPages?: pulumi.Input<number>;
  /** The most items one listing may yield. */
  maxItems?: pulumi.Input<number>;
  /** The slowest a streamed download may be, in bytes a second (0 turns the floor off). */
  minDownloadBytesPerSecond?: pulumi.Input<number>;
}

/** Every setting is an argument, and every argument a setting: compiles only while both lists agree. */
type SameKeys<A, B> = [Exclude<keyof A, B>, Exclude<B, keyof A>] extends [never, never] ? true : never;
export const providerArgsCoverSettings: SameKeys<ProviderArgs, SettingName> = true;

const settingsOfProvider = new WeakMap<Provider, pulumi.Output<SettingsInput>>();

/**
 * The settings of a `bunnynet.Provider`, as the program resolves its arguments (secret when the key is), for lookups;
 * undefined for any other provider resource.
 */
export function providerSettings(provider: pulumi.ProviderResource): pulumi.Output<SettingsInput> | undefined {
  return settingsOfProvider.get(provider as Provider);
}
