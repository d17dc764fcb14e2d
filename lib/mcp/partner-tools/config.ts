// The configuration tool (`owner.read`): how the project is set up in the token's environment. No secrets.
import { z } from "zod";
import { idOf, text } from "../../wire/response-schema";
import { readProjectState } from "../../projects/project-state";
import { readTenantProject } from "../../projects/queries";
import { tierLimitsFor } from "../../ratelimit/policies";
import { listAllWebhookEndpoints } from "../../webhooks/queries";
import { SERVER_VERSION } from "../protocol";
import { defineTool } from "../tools";
import { ACCESS, type PartnerCaller } from "./access";
import { noArguments } from "./arguments";

const configSnapshotOutput = z.strictObject({
  project: z.strictObject({ id: idOf("proj"), name: text(), tier: text(), status: text(), scopes: z.array(text()), capabilities: z.array(text()) }),
  environment: z.enum(["sandbox", "live"]),
  rate_limit: z.strictObject({ per_second: z.number(), burst: z.int(), concurrent: z.int() }),
  webhook_endpoints: z.array(z.strictObject({ id: idOf("whe"), url: text(), status: text(), enabled_events: z.array(text()) })),
  sandbox_clock_offset_days: z.int(),
  mcp_server_version: text(),
});

const configSnapshot = defineTool<PartnerCaller, typeof noArguments, typeof configSnapshotOutput>({
  name: "config_snapshot",
  alias: "ConfigSnapshot",
  title: "Configuration snapshot",
  description: "How this project is set up in this environment: tier, scopes, capabilities, rate limit, webhook endpoints and the sandbox test clock. No secrets.",
  input: noArguments,
  output: configSnapshotOutput,
  access: ACCESS.config,
  async run(_input, { tenant }) {
    const [project, endpoints, state] = await Promise.all([readTenantProject(tenant), listAllWebhookEndpoints(tenant), readProjectState(tenant.projectId)]);
    const limits = tierLimitsFor(state!.limitSettings, tenant.environment);
    const structured = {
      project: { id: project.id, name: project.name, tier: project.tier, status: project.status, scopes: project.scopes, capabilities: project.capabilities },
      environment: tenant.environment,
      rate_limit: { per_second: limits.ratePerSecond, burst: limits.burst, concurrent: limits.concurrent },
      webhook_endpoints: endpoints.map((endpoint) => ({ id: endpoint.id, url: endpoint.url, status: endpoint.status, enabled_events: endpoint.enabledEvents })),
      sandbox_clock_offset_days: tenant.environment === "sandbox" ? state!.sandboxClockOffsetDays : 0,
      mcp_server_version: SERVER_VERSION,
    };
    return {
      text: `${project.name} (${project.tier}, ${tenant.environment}): ${project.scopes.length} scopes, ${endpoints.length} webhook endpoint(s), ${limits.ratePerSecond} requests a second.`,
      structured,
    };
  },
});

export const CONFIG_TOOLS = [configSnapshot];
