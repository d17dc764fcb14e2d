// The partner MCP server's own tools (spec 4.9, 5.2), beside the six public ones, one module per family, each
// tool registered with the scope that opens it (./access.ts). Every read goes through its domain's queries,
// limited to the token's project and environment.
import { PUBLIC_TOOLS } from "../public-tools";
import { ToolTable, type McpTool } from "../tools";
import type { PartnerCaller } from "./access";
import { APPLICATION_TOOLS } from "./applications";
import { CONFIG_TOOLS } from "./config";
import { DECISIONING_TOOLS } from "./decisions";
import { LOAN_TOOLS } from "./loans";
import { METRICS_TOOLS } from "./metrics";
import { OPERATIONS_TOOLS } from "./operations";

export type { PartnerCaller } from "./access";

const PARTNER_TOOLS: readonly McpTool<PartnerCaller>[] = [...DECISIONING_TOOLS, ...APPLICATION_TOOLS, ...LOAN_TOOLS, ...OPERATIONS_TOOLS, ...METRICS_TOOLS, ...CONFIG_TOOLS];

let table: ToolTable<PartnerCaller> | undefined;

/** The public tools and the partner tools, built once per process. */
export function partnerToolTable(): ToolTable<PartnerCaller> {
  table ??= new ToolTable<PartnerCaller>([...PUBLIC_TOOLS, ...PARTNER_TOOLS]);
  return table;
}
