// The admin CLI: `npm run --silent cli -- <command> [options]`. Talks to the same database as the app.
// The commands and their exit codes are in bin/command-line.ts; this process runs them and exits with the code.
import "../scripts/require-node";
import { runCommandLine } from "./command-line";

process.exit(await runCommandLine(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }));
