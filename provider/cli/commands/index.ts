import type { Command } from "../command";
import { accountCloseCommand } from "./account";
import { apikeysCommand } from "./apikeys";
import { endpointsCommand, regionsCommand } from "./containers";
import { exportCommand } from "./export";
import { hostnamesCommand } from "./hostnames";
import { secretsCommand } from "./scripts";
import { logsDownloadCommand, logsQueryCommand, logsTailCommand } from "./logs";

/** Every subcommand of `bunnynet`, in the order `--help` lists them. */
export const commands: Command[] = [
  logsQueryCommand,
  logsTailCommand,
  logsDownloadCommand,
  regionsCommand,
  endpointsCommand,
  hostnamesCommand,
  secretsCommand,
  apikeysCommand,
  exportCommand,
  accountCloseCommand,
];
