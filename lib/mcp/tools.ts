// A server's tools: each declares its names, its argument and result schemas (zod, shown to clients as JSON
// Schema) and what it runs for a caller. A table is built once per process: the `tools/list` reply and the
// lookup by name or alias are computed then, never per request. `C` is who calls: nobody on the public server,
// the authenticated tenant on the partner server.
import { z } from "zod";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { GrantableScope, PartnerScope } from "../oauth/scopes";

export interface ToolOutput<S> {
  /** The human-readable `content` text. */
  text: string;
  /** `structuredContent`, matching the tool's `output` schema. */
  structured: S;
}

/** Who may call a partner tool (spec 5.2): a token carrying `scope`, or the site scheme's `siteScope`. */
export interface ToolAccess {
  scope: PartnerScope;
  siteScope: GrantableScope;
  /** Personal-data reads: every call is written to the audit log (lib/mcp/audit.ts). */
  audited: boolean;
}

export interface McpTool<C, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** snake_case, the name `tools/list` gives. */
  name: string;
  /** The PascalCase name (spec 4.9's catalogue), accepted by `tools/call` and listed in the server card. */
  alias: string;
  title: string;
  description: string;
  /** The arguments: a strict object (unknown arguments are invalid params). */
  input: I;
  output: O;
  run(input: z.output<I>, caller: C): Promise<ToolOutput<z.output<O>>> | ToolOutput<z.output<O>>;
  /** The scopes that open it; a tool without is open to every caller of its server. */
  access?: ToolAccess;
}

/** Whether a token with `scopes` may see and call `tool`; `null` scopes: a server without credentials, whose tools are all open. */
export function mayCall(tool: Pick<McpTool<unknown>, "access">, scopes: ReadonlySet<string> | null): boolean {
  return !tool.access || (scopes !== null && (scopes.has(tool.access.scope) || scopes.has(tool.access.siteScope)));
}

/** Declares one tool; exists so TypeScript checks `run` against the tool's schemas. */
export function defineTool<C, I extends z.ZodType, O extends z.ZodType>(tool: McpTool<C, I, O>): McpTool<C> {
  return tool as unknown as McpTool<C>;
}

/**
 * A zod schema as the JSON Schema an MCP client reads: an object schema at the top (MCP requires `type:
 * "object"`), so a named schema (`.meta({ id })`, which zod turns into a reference) is written out in place.
 */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Tool["inputSchema"] {
  const { $schema: _dialect, $ref, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown> & {
    $ref?: string;
    $defs?: Record<string, Record<string, unknown>>;
  };
  const named = $ref?.startsWith("#/$defs/") ? $defs?.[$ref.slice("#/$defs/".length)] : undefined;
  if (!named) return { ...rest, ...($defs ? { $defs } : {}) } as Tool["inputSchema"];
  const { [$ref!.slice("#/$defs/".length)]: _self, ...others } = $defs!;
  return { ...named, ...rest, ...(Object.keys(others).length > 0 ? { $defs: others } : {}) } as Tool["inputSchema"];
}

export class ToolTable<C> {
  /** The `tools` of the `tools/list` reply to a caller who may call every tool, in table order. */
  readonly listed: Tool[];
  private readonly byName: Map<string, McpTool<C>>;

  constructor(readonly tools: readonly McpTool<C>[]) {
    this.listed = tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: jsonSchemaOf(tool.input, "input"),
      outputSchema: jsonSchemaOf(tool.output, "output"),
      annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    }));
    this.byName = new Map(tools.flatMap((tool) => [[tool.name, tool] as const, [tool.alias, tool] as const]));
  }

  /** The `tools` of the `tools/list` reply to a token with `scopes`: those it may call. */
  listedFor(scopes: ReadonlySet<string> | null): Tool[] {
    return this.tools.every((tool) => mayCall(tool, scopes)) ? this.listed : this.listed.filter((_, index) => mayCall(this.tools[index]!, scopes));
  }

  /** The tool called `name`, by its snake_case name or its PascalCase alias. */
  find(name: string): McpTool<C> | undefined {
    return this.byName.get(name);
  }
}
