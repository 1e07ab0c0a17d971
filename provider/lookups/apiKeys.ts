import * as pulumi from "@pulumi/pulumi";
import { type LookupOptions, collect, lookupClient, runLookup } from "./client";

export interface ApiKeyInfo {
  id: number;
  /** The key itself: a secret (null when the API did not send it; the field is nullable). */
  key: string | null;
  roles: string[];
}

export interface GetApiKeysResult {
  keys: ApiKeyInfo[];
}

/**
 * Every API key of the account (`GET /apikey`, all pages).
 * The result holds secret key values in plain text: prefer `getApiKeysOutput`, which marks it secret,
 * or wrap what you keep in `pulumi.secret`.
 */
export function getApiKeys(options: LookupOptions = {}): Promise<GetApiKeysResult> {
  return runLookup("getApiKeys", {}, options, fetchApiKeys);
}

/** `getApiKeys` calling the API. */
async function fetchApiKeys(_args: object, options: LookupOptions): Promise<GetApiKeysResult> {
  const keys = await collect(lookupClient(options).apiKeys.list());
  return { keys: keys.map((k) => ({ id: k.Id, key: k.Key, roles: k.Roles })) };
}

/** `getApiKeys` as a secret Output: anything derived from it stays secret (unsecret ids yourself if needed). */
export function getApiKeysOutput(options: LookupOptions = {}): pulumi.Output<GetApiKeysResult> {
  return pulumi.secret(getApiKeys(options));
}
