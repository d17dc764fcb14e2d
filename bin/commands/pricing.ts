import { z } from "zod";
import { getPricingConfig, listPricingVersions, PricingConfigError, updatePricingConfig } from "../../lib/pricing/config";
import { parseFlags, UsageError, type Command } from "../cli-kit";

export const pricingShow: Command = {
  words: ["pricing", "show"],
  synopsis: "[--json]",
  description: "The current pricing configuration (what /public/v1/config/pricing serves).",
  options: {},
  async run({ database, print }) {
    await database();
    const config = await getPricingConfig();
    print(JSON.stringify(config, null, 2), config);
  },
};

/** A value as typed on the command line: JSON when it parses (numbers, booleans, arrays), else the string. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function setAt(target: Record<string, unknown>, setting: string, value: unknown): void {
  const path = setting.split(".");
  let container = target;
  for (const [index, name] of path.entries()) {
    if (!(name in container)) throw new UsageError(`no setting named ${setting}`);
    if (index === path.length - 1) {
      container[name] = value;
      return;
    }
    const next = container[name];
    if (next === null || typeof next !== "object" || Array.isArray(next)) throw new UsageError(`${path.slice(0, index + 1).join(".")} has no settings under it`);
    container = next as Record<string, unknown>;
  }
}

const setFlags = z.object({ note: z.string().trim().min(1).max(200).optional() });

export const pricingSet: Command = {
  words: ["pricing", "set"],
  synopsis: "[--] SETTING VALUE [--note TEXT] [--json]",
  description: "Change one setting (e.g. business_loan.establishment_fee_pounds 12.5) as a new version; refused if the result is invalid.",
  options: { note: { type: "string", value: "TEXT", description: "Why, kept with the version (default: \"set SETTING\")." } },
  positionals: 2,
  async run({ positionals, values, database, print }) {
    const [setting, rawValue] = positionals as [string, string];
    const { note } = parseFlags(setFlags, values);
    await database();
    try {
      const updated = await updatePricingConfig((figures) => {
        setAt(figures as unknown as Record<string, unknown>, setting, parseValue(rawValue));
        return figures;
      }, note ?? `set ${setting}`);
      print(`Pricing is now version ${updated.version}.`, updated);
    } catch (error) {
      if (error instanceof PricingConfigError) throw new UsageError(`the change makes an invalid configuration:\n${error.message}`);
      throw error;
    }
  },
};

const historyFlags = z.object({ limit: z.coerce.number().int().min(1).max(500).default(20) });

export const pricingHistory: Command = {
  words: ["pricing", "history"],
  synopsis: "[--limit N] [--json]",
  description: "Pricing versions, newest first, with their notes.",
  options: { limit: { type: "string", value: "N", description: "How many versions (1-500, default 20)." } },
  async run({ values, database, print }) {
    const { limit } = parseFlags(historyFlags, values);
    await database();
    const versions = await listPricingVersions(limit);
    print(versions.map((version) => `v${version.version}  ${version.created_at}  ${version.note ?? ""}`).join("\n"), versions);
  },
};
