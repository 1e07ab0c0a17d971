import type { Command } from "../command";
import { accountCloseCommand } from "./account";
import { apikeysCommand } from "./apikeys";
import { endpointsCommand, regionsCommand } from "./containers";

/** Every subcommand of `bunnynet`, in the order `--help` lists them. */
export const commands: Command[] = [regionsCommand, endpointsCommand, apikeysCommand, accountCloseCommand];
