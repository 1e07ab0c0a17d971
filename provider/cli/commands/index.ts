import type { Command } from "../command";
import { accountCloseCommand } from "./account";
import { apikeysCommand } from "./apikeys";

/** Every subcommand of `bunnynet`, in the order `--help` lists them. */
export const commands: Command[] = [apikeysCommand, accountCloseCommand];
