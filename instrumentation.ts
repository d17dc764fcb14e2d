// Runs once when a server process starts: configuration is validated before the first request, so a bad
// variable stops `next start` with a message naming it instead of failing later.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { config } = await import("./lib/env");
  config();
}
