import type { BunnyClient } from "../client";
import * as lookups from "../lookups";
import { type EngineConfig, ProviderSession } from "../pulumi/session";
import { type Plain, plain } from "../pulumi/wire";
import { TOKEN_PREFIX } from "./resourceProvider";

/**
 * The lookups as provider functions, `bunnynet:index:get<Thing>`: the same functions, names and arguments as the
 * TypeScript lookups of provider/lookups (getPullZone, getDnsZone, getRegions…), run in the plugin with the
 * configured provider's account (they take a client, as in a test, instead of the program's stack config).
 */

type Lookup = (args: object, options: { client: BunnyClient }) => Promise<unknown>;

/**
 * The lookups whose TypeScript form takes something else than one object of arguments: the function's arguments (its
 * schema's inputs, by name) turned into that form. Called as the others, getApiKeys (options only) would take the
 * arguments for its options and read no configured account.
 */
const ADAPTED: Record<string, Lookup> = {
  getApiKeys: (_args, options) => lookups.getApiKeys(options),
};

/** Every lookup by name: the exports `get<Thing>` of provider/lookups (their `…Output` forms are for programs). */
const functions = new Map<string, Lookup>(
  Object.entries(lookups)
    .filter(([name, fn]) => /^get[A-Z]/.test(name) && !name.endsWith("Output") && typeof fn === "function")
    .map(([name, fn]) => [name, ADAPTED[name] ?? (fn as Lookup)]),
);

/** The settings and client of the provider this process serves, as every resource type has its own. */
const session = new ProviderSession();

/** Configure: the account the functions read (the settings of the provider this process serves). */
export function configureFunctions(engineConfig: EngineConfig): void {
  session.configure(engineConfig);
}

export async function invokeFunction(token: string, args: Plain): Promise<Plain> {
  const name = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : "";
  const fn = functions.get(name);
  if (!fn) throw new Error(`bunnynet has no function ${JSON.stringify(token)}: the functions are ${[...functions.keys()].map((n) => TOKEN_PREFIX + n).join(", ")}`);
  const result = await fn(args, { client: session.client() });
  return plain((typeof result === "object" && result !== null ? result : { value: result }) as Plain);
}
