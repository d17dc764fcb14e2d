// postinstall: generate the Prisma client. The Prisma CLI tries to download a query engine when
// DATABASE_URL is missing, so a placeholder is supplied; generation never connects to it.
import { spawnSync } from "node:child_process";

const env = { ...process.env };
if (!env.DATABASE_URL) env.DATABASE_URL = "postgresql://placeholder@127.0.0.1:5432/placeholder";
const result = spawnSync("npx", ["--no-install", "prisma", "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
