import { readFile } from "node:fs/promises";
import type { Command } from "../command";
import { ExitCode, UsageError } from "../exitCodes";

/** The account is named by the last characters of its API key: a person types them, a script passes them. */
const ACCOUNT_TAG_LENGTH = 6;

export const accountCloseCommand: Command = {
  name: "account close",
  summary: "Close the bunny.net account. Irreversible: asks for the password and a typed confirmation, and is never retried.",
  options: {
    "password-file": { type: "string" },
    reason: { type: "string" },
    "confirm-account": { type: "string" },
  },
  details: `The password comes from --password-file, else BUNNYNET_ACCOUNT_PASSWORD, else a hidden prompt.
Without a terminal the command refuses to run unless --confirm-account names the account by the last
${ACCOUNT_TAG_LENGTH} characters of its API key (BUNNYNET_API_KEY).`,
  async run({ io, values, client }) {
    const c = client();
    const tag = c.settings.apiKey.slice(-ACCOUNT_TAG_LENGTH);
    const confirm = values["confirm-account"] as string | undefined;
    if (confirm !== undefined && confirm !== tag) {
      throw new UsageError(`--confirm-account does not name this account (its API key does not end in ${JSON.stringify(confirm)}); nothing was sent`);
    }
    if (confirm === undefined && !io.stdinIsTTY) {
      throw new UsageError(
        `refusing to close the account without a terminal; to do it from a script, pass --confirm-account with the last ${ACCOUNT_TAG_LENGTH} characters of the API key`,
      );
    }

    let password: string | undefined;
    if (typeof values["password-file"] === "string") password = (await readFile(values["password-file"], "utf8")).replace(/\r?\n$/, "");
    else password = io.env.BUNNYNET_ACCOUNT_PASSWORD || undefined;
    if (password === undefined) {
      if (!io.stdinIsTTY) throw new UsageError("no password: use --password-file or BUNNYNET_ACCOUNT_PASSWORD");
      password = await io.prompt("Account password: ", true);
    }
    if (!password) throw new UsageError("the password is empty; nothing was sent");

    if (confirm === undefined) {
      io.stderr(`This closes the bunny.net account whose API key ends in ${tag}. It cannot be undone.\n`);
      const typed = (await io.prompt(`Type "close ${tag}" to confirm: `)).trim();
      if (typed !== `close ${tag}`) {
        io.stderr("Not confirmed; nothing was sent.\n");
        return ExitCode.Usage;
      }
    }
    const reason = typeof values.reason === "string" ? values.reason : undefined;
    const result = await c.account.closeAccount({ password, reason });
    io.stdout(`${result.Message ?? "The account was closed."}\n`);
    return ExitCode.Ok;
  },
};
