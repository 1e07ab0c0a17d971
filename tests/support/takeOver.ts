import assert from "node:assert/strict";

/**
 * The command a refusal prints for an object found at create that cannot be proven the resource's own
 * (provider/pulumi/ownership.ts): `BUNNYNET_ADOPT='<urn>=<id>' pulumi up`. Returns the variable's value, unquoted as a
 * POSIX shell would, for a test to run that command as a user pastes it.
 */
export function takeOverValue(message: string): string {
  const found = /BUNNYNET_ADOPT=((?:'[^']*'|\\')+) pulumi up/.exec(message);
  assert.ok(found, `no take-over command in: ${message}`);
  return found[1].replace(/'([^']*)'|\\'/g, (_all, quoted: string | undefined) => quoted ?? "'");
}

/** The message of the refusal `attempt` ends with (it must fail). */
export async function refusal(attempt: Promise<unknown>): Promise<string> {
  return attempt.then(
    () => assert.fail("taken without proof"),
    (e: Error) => e.message,
  );
}
