// The admin CLI: `npm run --silent cli -- <command> [options]`. Talks to the same database as the app.
// Exit codes: 0 success, 1 failure, 2 usage error (unknown command, bad flag or value: the error and the
// command's own usage are printed, or the command list for an unknown command).
import "../scripts/require-node";
import { commandUsage, openDatabase, parseCommandLine, USAGE_PREFIX, UsageError, type Command } from "./cli-kit";
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
import { seed } from "./commands/seed";
import { notificationsList, webhooksAttempts } from "./commands/webhooks";

const COMMANDS: Command[] = [
  projectCreate,
  projectSuspend,
  projectActivate,
  projectRevokeTokens,
  projectCapability,
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
  listen,
  oauthRotateSigningKey,
  maintenanceRun,
  cmsPut,
  cmsPublish,
  cmsUnpublish,
  cmsList,
  seed,
];

function usage(): string {
  const lines = COMMANDS.map((command) => `  ${[...command.words, command.synopsis].join(" ")}\n      ${command.description}`);
  return `${USAGE_PREFIX} <command> [options]\n\nCommands:\n${lines.join("\n")}\n\nEvery command accepts --json for machine-readable output. One command's options: help <command>, or <command> --help.`;
}

function findCommand(args: string[]): { command: Command; rest: string[] } | null {
  const matches = COMMANDS.filter((command) => command.words.every((word, index) => args[index] === word));
  const command = matches.sort((a, b) => b.words.length - a.words.length)[0];
  return command ? { command, rest: args.slice(command.words.length) } : null;
}

/** Prints a usage error with the usage that helps (one command's, or the command list); answers the exit code. */
function usageError(message: string, usageText: string): number {
  console.error(`error: ${message}\n\n${usageText}`);
  return 2;
}

function isHelpFlag(arg: string): boolean {
  return arg === "--help" || arg === "-h";
}

/** `help` alone lists the commands; `help <command>` shows that command's usage. */
function printHelp(words: string[]): number {
  if (words.length === 0) {
    console.log(usage());
    return 0;
  }
  const found = findCommand(words);
  if (!found || found.rest.length > 0) return usageError(`unknown command: ${words.join(" ")}`, usage());
  console.log(commandUsage(found.command));
  return 0;
}

async function runCommand(command: Command, args: string[]): Promise<void> {
  const parsed = parseCommandLine(command, args);
  const opened: { connection?: Awaited<ReturnType<typeof openDatabase>> } = {};
  try {
    await command.run({
      ...parsed,
      database: async () => {
        opened.connection ??= await openDatabase();
        return opened.connection.database;
      },
      print: (human, json) => console.log(parsed.json ? JSON.stringify(json, null, 2) : human),
    });
  } finally {
    await opened.connection?.close();
  }
}

async function main(args: string[]): Promise<number> {
  if (args.length === 0) {
    console.log(usage());
    return 2;
  }
  if (args[0] === "help" || isHelpFlag(args[0]!)) return printHelp(args.slice(1));
  const found = findCommand(args);
  if (!found) return usageError(`unknown command: ${args.join(" ")}`, usage());
  // Flags end at `--`: after it, "--help" is a value (pricing set -- SETTING VALUE).
  const flags = found.rest.includes("--") ? found.rest.slice(0, found.rest.indexOf("--")) : found.rest;
  if (flags.some(isHelpFlag)) {
    console.log(commandUsage(found.command));
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
