import type { Command } from "../command";
import { accountCloseCommand } from "./account";
import { apikeysCommand } from "./apikeys";
import { endpointsCommand, regionsCommand } from "./containers";
import { logsDownloadCommand, logsQueryCommand, logsTailCommand } from "./logs";

/** Every subcommand of `bunnynet`, in the order `--help` lists them. */
export const commands: Command[] = [
  logsQueryCommand,
  logsTailCommand,
  logsDownloadCommand,
  regionsCommand,
  endpointsCommand,
  apikeysCommand,
  accountCloseCommand,
];
