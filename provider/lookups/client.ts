import * as pulumi from "@pulumi/pulumi";
import { BunnyClient } from "../client";
import { settingsFromConfig } from "../pulumi/session";

/** Options every lookup takes. */
export interface LookupOptions {
  /** A client to use instead of one built from the stack config (tests, custom settings). */
  client?: BunnyClient;
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

/** Collects an async sequence into an array. */
export async function collect<T>(items: AsyncIterable<T>, keep: (item: T) => boolean = () => true): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) if (keep(item)) out.push(item);
  return out;
}
