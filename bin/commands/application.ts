import { describeApplication } from "../../lib/applications/service";
import type { Command } from "../cli-kit";

export const applicationShow: Command = {
  words: ["application", "show"],
  synopsis: "app_... [--json]",
  description: "Show an application with its decision and event history.",
  options: {},
  positionals: 1,
  async run({ positionals, database, print }) {
    const id = positionals[0]!;
    await database();
    const described = await describeApplication(id);
    if (!described) throw new Error(`No such application: ${id}`);
    const { application, decision, events } = described;
    const lines = [
      `${application.id}  ${application.status}  (${application.livemode ? "live" : "sandbox"}, project ${described.project_id})`,
      `  business     ${application.business.name} (${application.business.company_number})`,
      `  requested    ${application.amount_pence} pence over ${application.term_months} months${application.purpose ? ` for ${application.purpose}` : ""}`,
      `  reference    ${application.reference ?? "-"}`,
      `  created      ${application.created_at}, expires ${application.expires_at}`,
      decision
        ? `  decision     ${decision.id} v${decision.version}: ${decision.outcome}${decision.outcome === "approved" ? ` ${decision.approved_amount_pence} pence at ${decision.apr_bps} bps` : ""}${decision.reasons.length ? ` (${decision.reasons.map((reason) => reason.code).join(", ")})` : ""}${decision.locked ? " [locked]" : ""}`
        : "  decision     -",
      "  events",
      ...events.map((event) => `    ${event.created_at}  ${event.type}  ${event.id}`),
    ];
    print(lines.join("\n"), described);
  },
};
