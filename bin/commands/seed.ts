import { seedDemo } from "../../lib/seed/seed-demo";
import type { Command } from "../cli-kit";

export const seed: Command = {
  words: ["seed"],
  synopsis: "[--json]",
  description: "Create the demo data if missing (idempotent) and print the demo sandbox credentials.",
  options: {},
  async run({ database, print }) {
    const result = await seedDemo(await database());
    const { demo, created } = result;
    print(
      [
        `${created.project ? "Created" : "Found"} demo project ${demo.project_id}`,
        `  client_id       ${demo.client_id}`,
        `  client_secret   ${demo.sandbox.secret_key}${created.sandbox_keys ? "  (new)" : ""}`,
        `  publishable key ${demo.sandbox.publishable_key}`,
      ].join("\n"),
      result,
    );
  },
};
