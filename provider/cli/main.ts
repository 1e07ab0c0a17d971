#!/usr/bin/env node
/**
 * `bunnynet`: the command-line tool for what is not declarative (CDN logs, listings, closing the account).
 * Subcommands live in ./commands, one file per API surface.
 */
// First: refuse an unsupported Node.js with a clear message before undici loads.
import "./nodeGuard";
import { createInterface } from "node:readline";
import { type CliIO, type Command, runCommand } from "./command";
import { ExitCode } from "./exitCodes";
import { commands } from "./commands";

export function toolHelp(list: Command[] = commands): string {
  const width = Math.max(...list.map((c) => c.name.length));
  return [
    "usage: bunnynet <command> [options]",
    "",
    "Commands:",
    ...list.map((c) => `  ${c.name.padEnd(width)}  ${c.summary.split(". ")[0]}`),
    "",
    "Run `bunnynet <command> --help` for a command's options.",
    "",
  ].join("\n");
}

/** Finds the longest command name that prefixes argv ("logs query" before "logs"). */
function findCommand(argv: string[]): { command?: Command; rest: string[] } {
  const sorted = [...commands].sort((a, b) => b.name.split(" ").length - a.name.split(" ").length);
  for (const c of sorted) {
    const words = c.name.split(" ");
    if (words.every((w, i) => argv[i] === w)) return { command: c, rest: argv.slice(words.length) };
  }
  return { rest: argv };
}

const isHelp = (arg: string | undefined) => arg === "--help" || arg === "-h" || arg === "help";

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  if (argv.length === 0 || isHelp(argv[0])) {
    io.stdout(toolHelp());
    return argv.length === 0 ? ExitCode.Usage : ExitCode.Ok;
  }
  const { command, rest } = findCommand(argv);
  if (!command) {
    const group = commands.filter((c) => c.name.startsWith(argv[0] + " "));
    // `bunnynet logs --help` (or `bunnynet logs`): the group's commands, as the tool's help lists them.
    if (group.length > 0 && (argv.length === 1 || isHelp(argv[1]))) {
      const text = `${toolHelp(group).replace("usage: bunnynet <command>", `usage: bunnynet ${argv[0]} <command>`)}`;
      if (argv.length === 1) io.stderr(text);
      else io.stdout(text);
      return argv.length === 1 ? ExitCode.Usage : ExitCode.Ok;
    }
    const what = group.length > 0 ? `${argv[0]} ${argv[1]}` : argv[0];
    io.stderr(`bunnynet: unknown command "${what}"\n\n${toolHelp(group.length > 0 ? group : commands)}`);
    return ExitCode.Usage;
  }
  return runCommand(command, rest, io);
}

function processIO(signal: AbortSignal): CliIO {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    stdoutIsTTY: process.stdout.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    env: process.env,
    signal,
    prompt: (question, hidden = false) =>
      new Promise((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
        if (hidden) {
          // Echo nothing while the password is typed.
          (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
            if (s.includes(question)) process.stderr.write(question);
          };
        }
        rl.question(question, (answer) => {
          rl.close();
          if (hidden) process.stderr.write("\n");
          resolve(answer);
        });
      }),
  };
}

/** Runs the command line of this process (`bin/bunnynet.js`, or this file run directly). */
export function main(): void {
  const controller = new AbortController();
  let interrupts = 0;
  process.on("SIGINT", () => {
    // First Ctrl-C: stop cleanly (commands watch the signal). Second: leave at once.
    if (++interrupts > 1) process.exit(ExitCode.Interrupted);
    controller.abort();
  });
  // A closed pipe (`| head`) ends the run quietly.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(ExitCode.Ok);
  });
  runCli(process.argv.slice(2), processIO(controller.signal)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`bunnynet: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = ExitCode.Internal;
    },
  );
}

if (require.main === module) main();
