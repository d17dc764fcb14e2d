// The admin CLI: `npm run --silent cli -- <command> [options]`. Talks to the same database as the app.
// Exit codes: 0 success, 1 failure, 2 usage error (unknown command, bad flag or value).
import "../scripts/require-node";
import { openDatabase, parseCommandLine, UsageError, type Command } from "./cli-kit";
import { applicationShow } from "./commands/application";
import { projectCapability } from "./commands/capability";
import { cmsList, cmsPublish, cmsPut, cmsUnpublish } from "./commands/cms";
import { decisionLock, decisionRelease, decisionResolve } from "./commands/decision";
import { listen } from "./commands/listen";
import { maintenanceRun } from "./commands/maintenance";
import { oauthRotateSigningKey } from "./commands/oauth";
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
  const lines = COMMANDS.map((command) => `  ${[...command.words, command.synopsis].join(" ").padEnd(72)}\n      ${command.description}`);
  return `Usage: npm run --silent cli -- <command> [options]\n\nCommands:\n${lines.join("\n")}\n\nEvery command accepts --json for machine-readable output.`;
}

function findCommand(args: string[]): { command: Command; rest: string[] } | null {
  const matches = COMMANDS.filter((command) => command.words.every((word, index) => args[index] === word));
  const command = matches.sort((a, b) => b.words.length - a.words.length)[0];
  return command ? { command, rest: args.slice(command.words.length) } : null;
}

async function main(args: string[]): Promise<number> {
  if (args.length === 0 || args[0] === "help" || args[0] === "--help" || args[0] === "-h") {
    console.log(usage());
    return args.length === 0 ? 2 : 0;
  }
  const found = findCommand(args);
  if (!found) throw new UsageError(`unknown command: ${args.join(" ")}`);
  const parsed = parseCommandLine(found.command, found.rest);
  const opened: { connection?: Awaited<ReturnType<typeof openDatabase>> } = {};
  try {
    await found.command.run({
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
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\n\n${usage()}`);
      process.exit(2);
    }
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
