// The admin CLI as a function: arguments and streams in, exit code out. bin/cli.ts runs it as a process of its
// own; tests run it in theirs (tests/helpers/cli.ts), so it never exits the process, never prints but to the
// streams it is given and leaves nothing running once its promise settles.
// Exit codes: 0 success, 1 failure, 2 usage error (unknown command, bad flag or value: the error and the
// command's own usage are printed, or the command list for an unknown command).
import { processEnvironment } from "../lib/env";
import { commandUsage, openDatabase, parseCommandLine, USAGE_PREFIX, UsageError, type Command, type OpenedDatabase } from "./cli-kit";
import { accountForbear, accountShow, accountWriteOff } from "./commands/account";
import { applicationShow } from "./commands/application";
import { projectCapability } from "./commands/capability";
import { cmsList, cmsPublish, cmsPut, cmsUnpublish } from "./commands/cms";
import { decisionLock, decisionRelease, decisionResolve } from "./commands/decision";
import { listen } from "./commands/listen";
import { maintenanceRun } from "./commands/maintenance";
import { oauthRotateSigningKey } from "./commands/oauth";
import { paymentFail, paymentSettle } from "./commands/payment";
import { projectActivate, projectCreate, projectRevokeTokens, projectSuspend } from "./commands/project";
import { pricingHistory, pricingSet, pricingShow } from "./commands/pricing";
import { projectSetRevenueShare } from "./commands/revenue-share";
import { seed } from "./commands/seed";
import { oidcClientCreate, userCreate } from "./commands/sign-in";
import { teamAdd, teamList, teamRemove } from "./commands/team";
import { usageShow } from "./commands/usage";
import { notificationsList, webhooksAttempts } from "./commands/webhooks";

const COMMANDS: Command[] = [
  projectCreate,
  projectSuspend,
  projectActivate,
  projectRevokeTokens,
  projectCapability,
  projectSetRevenueShare,
  applicationShow,
  accountShow,
  accountForbear,
  accountWriteOff,
  paymentSettle,
  paymentFail,
  decisionLock,
  decisionRelease,
  decisionResolve,
  pricingShow,
  pricingSet,
  pricingHistory,
  webhooksAttempts,
  notificationsList,
  usageShow,
  listen,
  oauthRotateSigningKey,
  oidcClientCreate,
  userCreate,
  teamAdd,
  teamRemove,
  teamList,
  maintenanceRun,
  cmsPut,
  cmsPublish,
  cmsUnpublish,
  cmsList,
  seed,
];

/** Where the CLI writes: process.stdout and process.stderr, or a test's collectors. */
export interface TextOutput {
  write(text: string): unknown;
}

export interface CommandLineIo {
  stdout: TextOutput;
  stderr: TextOutput;
  /** The variables the commands read (listen's LENDING_*, seed's DEMO_CREDENTIALS_FILE); the process's when absent. */
  env?: Record<string, string | undefined>;
  /** Stops a command that runs until stopped (listen). Absent, ^C (SIGINT) does, as in a terminal. */
  signal?: AbortSignal;
  /**
   * The database for a command that needs one, released when the command ends. Absent, the CLI opens its own
   * (DATABASE_URL, or the embedded development database) and closes it; a test passes its process's pool, which
   * must stay open for the test's own queries.
   */
  openDatabase?: () => Promise<OpenedDatabase>;
}

function usage(): string {
  const lines = COMMANDS.map((command) => `  ${[...command.words, command.synopsis].join(" ")}\n      ${command.description}`);
  return `${USAGE_PREFIX} <command> [options]\n\nCommands:\n${lines.join("\n")}\n\nEvery command accepts --json for machine-readable output. One command's options: help <command>, or <command> --help.`;
}

function findCommand(args: string[]): { command: Command; rest: string[] } | null {
  const matches = COMMANDS.filter((command) => command.words.every((word, index) => args[index] === word));
  const command = matches.sort((a, b) => b.words.length - a.words.length)[0];
  return command ? { command, rest: args.slice(command.words.length) } : null;
}

function isHelpFlag(arg: string): boolean {
  return arg === "--help" || arg === "-h";
}

/** An abort signal for a command that runs until stopped: the caller's, or ^C's. */
function stopSignal(command: Command, given: AbortSignal | undefined): AbortSignal {
  if (given) return given;
  const controller = new AbortController();
  // Only such a command takes ^C over: any other still ends at once on it, as a process does by default.
  if (command.runsUntilStopped) process.once("SIGINT", () => controller.abort());
  return controller.signal;
}

/** Runs the admin CLI with `args` (the words after `cli`), printing to the streams given; answers the exit code. */
export async function runCommandLine(args: string[], io: CommandLineIo): Promise<number> {
  const printLine = (text: string) => io.stdout.write(`${text}\n`);

  /** Prints a usage error with the usage that helps (one command's, or the command list); answers the exit code. */
  function usageError(message: string, usageText: string): number {
    io.stderr.write(`error: ${message}\n\n${usageText}\n`);
    return 2;
  }

  /** `help` alone lists the commands; `help <command>` shows that command's usage. */
  function printHelp(words: string[]): number {
    if (words.length === 0) {
      printLine(usage());
      return 0;
    }
    const found = findCommand(words);
    if (!found || found.rest.length > 0) return usageError(`unknown command: ${words.join(" ")}`, usage());
    printLine(commandUsage(found.command));
    return 0;
  }

  async function runCommand(command: Command, rest: string[]): Promise<void> {
    const parsed = parseCommandLine(command, rest);
    const opened: { connection?: OpenedDatabase } = {};
    try {
      await command.run({
        ...parsed,
        env: io.env ?? processEnvironment(),
        signal: stopSignal(command, io.signal),
        database: async () => {
          opened.connection ??= await (io.openDatabase ?? openDatabase)();
          return opened.connection.database;
        },
        print: (human, json) => printLine(parsed.json ? JSON.stringify(json, null, 2) : human),
      });
    } finally {
      await opened.connection?.close();
    }
  }

  async function main(): Promise<number> {
    if (args.length === 0) {
      printLine(usage());
      return 2;
    }
    if (args[0] === "help" || isHelpFlag(args[0]!)) return printHelp(args.slice(1));
    const found = findCommand(args);
    if (!found) return usageError(`unknown command: ${args.join(" ")}`, usage());
    // Flags end at `--`: after it, "--help" is a value (pricing set -- SETTING VALUE).
    const flags = found.rest.includes("--") ? found.rest.slice(0, found.rest.indexOf("--")) : found.rest;
    if (flags.some(isHelpFlag)) {
      printLine(commandUsage(found.command));
      return 0;
    }
    try {
      await runCommand(found.command, found.rest);
    } catch (error) {
      if (error instanceof UsageError) return usageError(error.message, commandUsage(found.command));
      throw error;
    }
    return 0;
  }

  try {
    return await main();
  } catch (error) {
    io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
