import path from "node:path";
import { z } from "zod";
import { clock } from "../../lib/clock";
import { parseCliConfig } from "../../lib/env";
import { forwardEvents, formatDuration, type ConnectionLost, type ForwardedDelivery, type ForwarderOptions } from "../../lib/webhooks/forwarder";
import { readOrCreateForwarderSecret, rotateForwarderSecret } from "../../lib/webhooks/forwarder-secret";
import { parseFlags, type Command, type CommandContext } from "../cli-kit";

const secretFlags = z.object({
  "client-id": z.string({ error: "is required (or set LENDING_CLIENT_ID)" }).startsWith("svc_client_"),
  "print-secret": z.boolean().optional(),
  "new-secret": z.boolean().optional(),
});

const listenFlags = secretFlags.extend({
  "forward-to": z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  events: z
    .string()
    .transform((value) => value.split(",").map((type) => type.trim()).filter(Boolean))
    .optional(),
  "api-url": z.url({ protocol: /^https?$/ }),
  "api-key": z.string({ error: "is required (or set LENDING_API_KEY)" }).startsWith("sk_sandbox_", "must be a sandbox secret key"),
  "max-events": z.coerce.number().int().min(1).optional(),
});

function describeDelivery(delivery: ForwardedDelivery): string {
  if (delivery.status === null) return `failed: ${delivery.error}`;
  if (delivery.body === undefined) return String(delivery.status);
  return `${delivery.status}, ${delivery.body ? `body: ${delivery.body}` : "empty body"}`;
}

function describeLostConnection(apiUrl: string, lost: ConnectionLost): string {
  const wait = formatDuration(lost.delayMs);
  return lost.attempt === 1
    ? `Lost the connection to ${apiUrl} (${lost.reason}); reconnecting in ${wait}…`
    : `Still cannot reach ${apiUrl} (${lost.reason}); trying again in ${wait}…`;
}

/** This machine's secret for the project, replaced by a new one first when asked. */
function signingSecret(file: string, clientId: string, rotate: boolean): string {
  return rotate ? rotateForwarderSecret(file, clientId) : readOrCreateForwarderSecret(file, clientId);
}

/** What `cli listen` prints as the forwarder works: one line for each thing that happens. */
export function listenReporter(options: {
  apiUrl: string;
  forwardTo: string;
  secret: string;
  print: CommandContext["print"];
}): Pick<ForwarderOptions, "onReady" | "onDelivery" | "onConnectionLost" | "onReconnected"> {
  const { apiUrl, forwardTo, secret, print } = options;
  return {
    onReady: () => print(`Ready. Forwarding sandbox events to ${forwardTo}. Your webhook signing secret is ${secret} (^C to quit)`, { ready: true, secret }),
    onDelivery: (delivery) =>
      print(`${clock.now().toISOString()}  --> ${delivery.type} [${delivery.eventId}]  <-- ${describeDelivery(delivery)}`, {
        event: delivery.eventId,
        type: delivery.type,
        status: delivery.status,
        ...(delivery.error ? { error: delivery.error } : {}),
        ...(delivery.body !== undefined ? { body: delivery.body } : {}),
      }),
    onConnectionLost: (lost) =>
      print(describeLostConnection(apiUrl, lost), { connection: "lost", reason: lost.reason, attempt: lost.attempt, retry_in_ms: lost.delayMs }),
    onReconnected: () => print("Reconnected.", { connection: "restored" }),
  };
}

export const listen: Command = {
  words: ["listen"],
  synopsis: "--forward-to URL [--events a,b] [--client-id ID] [--api-key sk_sandbox_…] [--api-url URL] [--max-events N] [--print-secret] [--new-secret]",
  description:
    "Forward the project's new sandbox events to a local URL, signed with this machine's whsec_ secret for the project (printed at start, the same every run). Reconnects by itself.",
  options: {
    "forward-to": { type: "string", value: "URL", description: "Where to POST each event (http or https), e.g. http://localhost:4242/webhooks." },
    events: { type: "string", value: "a,b", description: "Only these event types (comma-separated); every type when absent." },
    "client-id": { type: "string", value: "ID", description: "The project's client id (or LENDING_CLIENT_ID)." },
    "api-key": { type: "string", value: "sk_sandbox_…", description: "The project's sandbox secret key (or LENDING_API_KEY)." },
    "api-url": { type: "string", value: "URL", description: "The platform's API (or LENDING_API_URL; default http://localhost:PORT)." },
    "max-events": { type: "string", value: "N", description: "Stop after forwarding N events." },
    "print-secret": { type: "boolean", description: "Print the project's signing secret (creating it if need be) and exit." },
    "new-secret": { type: "boolean", description: "Replace the signing secret with a new one first; the old one stops verifying." },
  },
  runsUntilStopped: true,
  async run({ values, env, signal, print }) {
    const environment = parseCliConfig(env);
    const given = {
      ...values,
      "api-url": values["api-url"] ?? environment.LENDING_API_URL,
      "client-id": values["client-id"] ?? environment.LENDING_CLIENT_ID,
      "api-key": values["api-key"] ?? environment.LENDING_API_KEY,
    };
    const secretsFile = path.resolve(environment.LISTEN_SECRETS_FILE);
    if (values["print-secret"]) {
      const clientId = parseFlags(secretFlags, given)["client-id"];
      const secret = signingSecret(secretsFile, clientId, values["new-secret"] === true);
      print(secret, { client_id: clientId, secret });
      return;
    }

    const flags = parseFlags(listenFlags, given);
    const clientId = flags["client-id"];
    const apiUrl = flags["api-url"].replace(/\/+$/, "");
    const secret = signingSecret(secretsFile, clientId, flags["new-secret"] === true);
    if (flags["new-secret"]) print(`New signing secret for ${clientId}; the previous one no longer verifies.`, { rotated: true, client_id: clientId });
    const forwarded = await forwardEvents({
      apiUrl,
      clientId,
      apiKey: flags["api-key"],
      forwardTo: flags["forward-to"],
      types: flags.events,
      maxEvents: flags["max-events"],
      secret,
      signal,
      ...listenReporter({ apiUrl, forwardTo: flags["forward-to"], secret, print }),
    });
    if (signal.aborted) print(`Stopped after forwarding ${forwarded} event(s).`, { stopped: true, forwarded });
  },
};
