-- The audit log of the partner MCP server's personal-data tools (docs/mcp.md).
CREATE TABLE "mcp_tool_calls" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "client_id" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "arguments_digest" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "called_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mcp_tool_calls_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "mcp_tool_calls_project_id_environment_called_at_idx" ON "mcp_tool_calls"("project_id", "environment", "called_at");
