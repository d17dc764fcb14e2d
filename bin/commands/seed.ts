import { parseConfig } from "../../lib/env";
import { seedDemo } from "../../lib/seed/seed-demo";
import { seedPlatform } from "../../lib/seed/seed-platform";
import type { Command } from "../cli-kit";

export const seed: Command = {
  words: ["seed"],
  synopsis: "[--json]",
  description: "Create the reference data (pricing, CMS pages, billers) and the demo data if missing (idempotent); print the demo sandbox credentials.",
  options: {},
  async run({ env, database, print }) {
    const connection = await database();
    const platform = await seedPlatform();
    const result = { ...(await seedDemo(connection, parseConfig(env))), platform };
    const { demo, created } = result;
    print(
      [
        `${created.project ? "Created" : "Found"} demo project ${demo.project_id}`,
        `  client_id       ${demo.client_id}`,
        `  client_secret   ${demo.sandbox.secret_key}${created.sandbox_keys ? "  (new)" : ""}`,
        `  publishable key ${demo.sandbox.publishable_key}`,
        ...(created.applications > 0 ? [`Created ${created.applications} demo sandbox applications`] : []),
      ].join("\n"),
      result,
    );
  },
};
