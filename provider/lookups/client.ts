import * as pulumi from "@pulumi/pulumi";
import { BunnyClient } from "../client";
import { settingsFromConfig } from "../pulumi/session";
import { providerSettings } from "../provider";
import type { SettingsInput } from "../settings";

/**
 * A lookup's arguments as its `…Output` form takes them: each field may be an Output, as Pulumi's generated
 * `get…Output` functions take them (`getDnsZoneOutput({ domain: zone.domain })`); each member of a union on its own.
 */
export type LookupOutputArgs<T> = T extends unknown ? { [K in keyof T]: pulumi.Input<T[K]> } : never;

/** Options every lookup takes. */
export interface LookupOptions {
  /** A client to use instead of one built from the stack config (tests, custom settings). */
  client?: BunnyClient;
  /** The account to read: a `bunnynet.Provider`'s (its key and settings) instead of the stack config's. */
  provider?: pulumi.ProviderResource;
}

/**
 * The client of a lookup, in the program process: `bunnynet:*` stack config (`pulumi config set --secret
 * bunnynet:apiKey …`), then BUNNYNET_* environment variables. Dynamic providers cannot serve invokes,
 * so lookups call the API from the program itself.
 */
export function lookupClient(options: LookupOptions = {}): BunnyClient {
  if (options.client) return options.client;
  const config = new pulumi.Config("bunnynet");
  return new BunnyClient(settingsFromConfig((name) => config.get(name)));
}

/** A lookup's token, as Pulumi names a package's functions (`bunnynet:index:getPullZone`): what mocks' `call` sees. */
export function lookupToken(name: string): string {
  return `bunnynet:index:${name}`;
}

/** The lookup calling the API itself, with the program's arguments. */
export type LookupFetch<A, R> = (args: A, options: LookupOptions) => Promise<R>;

/**
 * Marks the mocks of a stand-in for the engine (the testing kit's ProgramHarness): there lookups call the API, as
 * they do under the engine (dynamic providers serve no invokes), instead of asking the mocks.
 */
export const ENGINE_STAND_IN = Symbol.for("bunnynet-pulumi: mocks standing in for the engine");

/** Whether the program runs under a unit test's `pulumi.runtime.setMocks` (its monitor is the SDK's MockMonitor). */
function underUnitTestMocks(): boolean {
  const monitor = pulumi.runtime.getMonitor() as { mocks?: Record<symbol, unknown> } | undefined;
  return monitor?.mocks !== undefined && monitor.mocks[ENGINE_STAND_IN] !== true;
}

/**
 * Runs a lookup. Under a unit test's mocks (`pulumi.runtime.setMocks`) it is an invoke, as every Pulumi function
 * is there: the mocks' `call` answers it with its token and arguments (@pulumi/pulumi runtime/mocks.js,
 * MockMonitor.invoke), and nothing reaches the network. Otherwise, or with a client of its own, it calls the API.
 */
export async function runLookup<A extends object, R>(name: string, args: A, options: LookupOptions, fetch: LookupFetch<A, R>): Promise<R> {
  if (options.client) return fetch(args, options);
  if (underUnitTestMocks()) return (await pulumi.runtime.invoke(lookupToken(name), args as pulumi.Inputs, { provider: options.provider })) as R;
  if (!options.provider) return fetch(args, options);
  return fetch(args, { ...options, client: new BunnyClient(await settingsOfLookupProvider(name, options.provider)) });
}

/**
 * A lookup's provider's settings, once its arguments are known. A key that is still unknown (at preview, from a
 * resource not created yet) cannot be read with: refused, naming the lookup, rather than waiting for ever (an
 * Output's value never arrives when unknown; its `isKnown`, @pulumi/pulumi output.js OutputImpl, says so).
 */
async function settingsOfLookupProvider(name: string, provider: pulumi.ProviderResource): Promise<SettingsInput> {
  const settings = providerSettings(provider);
  if (!settings) throw new Error(`${name}: provider must be a bunnynet.Provider (a provider of this package)`);
  const { isKnown } = settings as unknown as { isKnown?: Promise<boolean> };
  if (isKnown !== undefined && !(await isKnown)) {
    throw new Error(`${name}: the bunnynet.Provider's settings are not known yet (at preview, its apiKey comes from a resource not created yet)`);
  }
  return new Promise((resolve) => settings.apply((value) => resolve(value)));
}

/** Collects an async sequence into an array. */
export async function collect<T>(items: AsyncIterable<T>, keep: (item: T) => boolean = () => true): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) if (keep(item)) out.push(item);
  return out;
}
