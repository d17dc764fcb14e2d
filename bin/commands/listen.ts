import { z } from "zod";
import { cliConfig } from "../../lib/env";
import { forwardEvents } from "../../lib/webhooks/forwarder";
import { parseFlags, type Command } from "../cli-kit";

const listenFlags = z.object({
  "forward-to": z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  events: z
    .string()
    .transform((value) => value.split(",").map((type) => type.trim()).filter(Boolean))
    .optional(),
  "api-url": z.url({ protocol: /^https?$/ }),
  "client-id": z.string({ error: "is required (or set LENDING_CLIENT_ID)" }).startsWith("svc_client_"),
  "api-key": z.string({ error: "is required (or set LENDING_API_KEY)" }).startsWith("sk_sandbox_", "must be a sandbox secret key"),
  "max-events": z.coerce.number().int().min(1).optional(),
});

export const listen: Command = {
  words: ["listen"],
  synopsis: "--forward-to URL [--events a,b] [--client-id ID] [--api-key sk_sandbox_…] [--api-url URL] [--max-events N]",
  description: "Forward the project's new sandbox events to a local URL, signed with a temporary whsec_ secret printed at start.",
  options: {
    "forward-to": { type: "string", value: "URL", description: "Where to POST each event (http or https), e.g. http://localhost:4242/webhooks." },
    events: { type: "string", value: "a,b", description: "Only these event types (comma-separated); every type when absent." },
    "api-url": { type: "string", value: "URL", description: "The platform's API (or LENDING_API_URL; default http://localhost:PORT)." },
    "client-id": { type: "string", value: "ID", description: "The project's client id (or LENDING_CLIENT_ID)." },
    "api-key": { type: "string", value: "sk_sandbox_…", description: "The project's sandbox secret key (or LENDING_API_KEY)." },
    "max-events": { type: "string", value: "N", description: "Stop after forwarding N events." },
  },
  async run({ values, print }) {
    const environment = cliConfig();
    const flags = parseFlags(listenFlags, {
      ...values,
      "api-url": values["api-url"] ?? environment.LENDING_API_URL,
      "client-id": values["client-id"] ?? environment.LENDING_CLIENT_ID,
      "api-key": values["api-key"] ?? environment.LENDING_API_KEY,
    });
    const controller = new AbortController();
    process.once("SIGINT", () => controller.abort());
    const forwarded = await forwardEvents({
      apiUrl: flags["api-url"].replace(/\/+$/, ""),
      clientId: flags["client-id"],
      apiKey: flags["api-key"],
      forwardTo: flags["forward-to"],
      types: flags.events,
      maxEvents: flags["max-events"],
      signal: controller.signal,
      onReady: (secret) =>
        print(`Ready. Forwarding sandbox events to ${flags["forward-to"]}. Your webhook signing secret is ${secret} (^C to quit)`, { ready: true, secret }),
      onDelivery: (delivery) =>
        print(
          `${new Date().toISOString()}  --> ${delivery.type} [${delivery.eventId}]  <-- ${delivery.status ?? `failed: ${delivery.error}`}`,
          { event: delivery.eventId, type: delivery.type, status: delivery.status, ...(delivery.error ? { error: delivery.error } : {}) },
        ),
    });
    if (controller.signal.aborted) print(`Stopped after forwarding ${forwarded} event(s).`, { stopped: true, forwarded });
  },
};
