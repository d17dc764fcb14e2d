// The pieces every admin command shares: the command shape, usage errors (exit 2) and the database
// connection (DATABASE_URL, or the embedded development database, started and migrated when needed).
import { parseArgs } from "node:util";
import type { z } from "zod";
import { config, setDatabaseUrl } from "../lib/env";
import { applyMigrations, DEV_DATABASE, resolveDatabase, type ResolvedDatabase } from "../scripts/database";

export class UsageError extends Error {
  override name = "UsageError";
}

export interface CommandContext {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  json: boolean;
  /** The environment the command reads its own variables from (parseCliConfig, the seed's credentials file). */
  env: Record<string, string | undefined>;
  /** Aborted when a command that runs until stopped should stop. */
  signal: AbortSignal;
  database: () => Promise<import("../lib/db").Database>;
  print: (human: string, json: unknown) => void;
}

/** A flag of a command, with what the usage says of it. */
export interface CommandOption {
  type: "string" | "boolean";
  /** What a string flag takes, as the usage shows it: "URL", "N". */
  value?: string;
  description: string;
  /** The flag may be given more than once; the command gets every value. */
  multiple?: boolean;
}

export interface Command {
  /** The words that select it, e.g. ["project", "create"]. */
  words: string[];
  /** Everything after the words, for the usage text. */
  synopsis: string;
  description: string;
  options: Record<string, CommandOption>;
  /** How many positionals it takes after its words. */
  positionals?: number;
  /** It runs until its signal stops it (listen), rather than ending by itself. */
  runsUntilStopped?: boolean;
  run(context: CommandContext): Promise<void>;
}

export const USAGE_PREFIX = "Usage: npm run --silent cli --";

const JSON_OPTION: CommandOption = { type: "boolean", description: "Print machine-readable JSON." };

/** One command's usage: its synopsis, what it does and each of its flags. */
export function commandUsage(command: Command): string {
  const flags = Object.entries({ ...command.options, json: JSON_OPTION }).map(([name, option]) => [`--${name}${option.value ? ` ${option.value}` : ""}`, option.description]);
  const width = Math.max(...flags.map(([flag]) => flag!.length)) + 2;
  return [
    `${USAGE_PREFIX} ${[...command.words, command.synopsis].join(" ")}`,
    "",
    command.description,
    "",
    "Options:",
    ...flags.map(([flag, description]) => `  ${flag!.padEnd(width)}${description}`),
  ].join("\n");
}

/** Parses flag values with a schema; a bad value is a usage error naming the flag. */
export function parseFlags<S extends z.ZodType>(schema: S, values: unknown): z.output<S> {
  const result = schema.safeParse(values);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `--${issue.path.join(".")}: ${issue.message}`);
    throw new UsageError(problems.join("\n"));
  }
  return result.data;
}

export function parseCommandLine(command: Command, args: string[]): Pick<CommandContext, "values" | "positionals" | "json"> {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...Object.fromEntries(Object.entries(command.options).map(([name, { type, multiple }]) => [name, { type, multiple: multiple ?? false }])), json: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== (command.positionals ?? 0)) {
      throw new UsageError(`expected ${command.positionals ?? 0} argument(s) after "${command.words.join(" ")}"`);
    }
    const flags = values as CommandContext["values"];
    return { values: flags, positionals, json: flags.json === true };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The database a command uses, and a function that releases it. */
export interface OpenedDatabase {
  database: import("../lib/db").Database;
  close: () => Promise<void>;
}

/** The database for a CLI run of its own, and a function that releases it (stopping an embedded cluster it started). */
export async function openDatabase(): Promise<OpenedDatabase> {
  let resolved: ResolvedDatabase | null = null;
  if (!config().DATABASE_URL) {
    resolved = await resolveDatabase(DEV_DATABASE.name, {
      dataDirName: DEV_DATABASE.dataDirName,
      port: config().EMBEDDED_POSTGRES_PORT,
    });
    setDatabaseUrl(resolved.url);
  }
  const { db, disconnectDatabase } = await import("../lib/db");
  const { readMigrationStatus } = await import("../lib/health/migrations");
  const database = db();
  if (resolved && !(await readMigrationStatus(database)).inSync) await applyMigrations(resolved.url);
  return {
    database,
    close: async () => {
      await disconnectDatabase();
      await resolved?.embedded?.stop();
    },
  };
}
