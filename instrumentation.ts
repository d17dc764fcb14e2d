// Runs once when a server process starts: configuration is validated before the first request, so a bad
// variable stops the server with a message naming it; the log says which rate-limit store is in use; and the
// background-work driver starts (decisioning, expiry, housekeeping).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { config } = await import("./lib/env");
  config();
  const { rateLimiter } = await import("./lib/ratelimit/limiter");
  rateLimiter();
  const { startBackgroundWork } = await import("./lib/background/start");
  await startBackgroundWork();
}
