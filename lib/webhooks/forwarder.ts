// The local forwarder behind `cli listen` (spec 6.4, like `stripe listen`): reads the project's new sandbox
// events from GET /partner/v1/events/stream and POSTs each, byte for byte, to a local address, signed with a
// temporary secret exactly as a real delivery is. Reconnects (resuming after the last event) and renews the
// access token when it expires.
import { clock } from "../clock";
import { randomToken } from "../ids";
import { SIGNATURE_HEADER, signWebhookPayload } from "./signature";

export interface ForwardedDelivery {
  eventId: string;
  type: string;
  /** The local receiver's status, or the error that prevented an answer. */
  status: number | null;
  error?: string;
}

export interface ForwarderOptions {
  apiUrl: string;
  clientId: string;
  apiKey: string;
  forwardTo: string;
  types?: string[];
  /** The temporary signing secret; one is generated when omitted. */
  secret?: string;
  onReady?: (secret: string) => void;
  onDelivery?: (delivery: ForwardedDelivery) => void;
  /** Stop after forwarding this many events (for scripts and tests); runs until aborted otherwise. */
  maxEvents?: number;
  signal?: AbortSignal;
}

export class ForwarderError extends Error {
  override name = "ForwarderError";
}

async function requestToken(options: ForwarderOptions): Promise<string> {
  const response = await fetch(`${options.apiUrl}/partner/v1/oauth/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.apiKey)}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "client_credentials", scope: "events:read" }),
    signal: options.signal,
  }).catch((error: unknown) => {
    throw new ForwarderError(`could not reach ${options.apiUrl}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string; error_description?: string };
  if (!response.ok || !body.access_token) {
    throw new ForwarderError(`could not get an access token (${response.status} ${body.error ?? ""}: ${body.error_description ?? ""})`);
  }
  return body.access_token;
}

interface StreamFrame {
  id?: string;
  event?: string;
  /** Null for a block that only sets the last event id. */
  data: string | null;
}

/** Splits a server-sent-events byte stream into frames (fields `id`, `event`, `data`; comments skipped). */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamFrame> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const frame: StreamFrame = { data: "" };
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const separator = line.indexOf(":");
        const field = separator < 0 ? line : line.slice(0, separator);
        const value = separator < 0 ? "" : line.slice(separator + 1).replace(/^ /, "");
        if (field === "id") frame.id = value;
        if (field === "event") frame.event = value;
        if (field === "data") data.push(value);
      }
      if (data.length > 0) yield { ...frame, data: data.join("\n") };
      // A block with an id and no data moves the cursor without an event (the stream's starting point).
      else if (frame.id !== undefined) yield { id: frame.id, data: null };
    }
  }
}

async function forwardOne(options: ForwarderOptions, secret: string, frame: StreamFrame & { data: string }): Promise<ForwardedDelivery> {
  const delivery = { eventId: frame.id ?? "", type: frame.event ?? "" };
  try {
    const response = await fetch(options.forwardTo, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: signWebhookPayload(frame.data, [secret], Math.floor(clock.now().getTime() / 1000)),
        "service-event-id": delivery.eventId,
      },
      body: frame.data,
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    return { ...delivery, status: response.status };
  } catch (error) {
    return { ...delivery, status: null, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Runs until aborted (or `maxEvents` are forwarded). Returns how many events were forwarded. */
export async function forwardEvents(options: ForwarderOptions): Promise<number> {
  const secret = options.secret ?? `whsec_${randomToken(40)}`;
  let token = await requestToken(options);
  let ready = false;
  let forwarded = 0;
  let lastEventId: string | null = null;
  const query = options.types?.length ? `?types=${encodeURIComponent(options.types.join(","))}` : "";
  while (!options.signal?.aborted) {
    let response: Response;
    try {
      response = await fetch(`${options.apiUrl}/partner/v1/events/stream${query}`, {
        headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) break;
      throw new ForwarderError(`could not reach ${options.apiUrl}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.status === 401) {
      token = await requestToken(options);
      continue;
    }
    if (!response.ok || !response.body) {
      const text = await response.text().catch(() => "");
      throw new ForwarderError(`the event stream answered ${response.status}: ${text}`);
    }
    // Ready once connected: the stream starts from the newest event at this moment.
    if (!ready) options.onReady?.(secret);
    ready = true;
    try {
      for await (const frame of readServerSentEvents(response.body)) {
        if (frame.data === null) {
          lastEventId = frame.id ?? lastEventId;
          continue;
        }
        options.onDelivery?.(await forwardOne(options, secret, { ...frame, data: frame.data }));
        lastEventId = frame.id ?? lastEventId;
        forwarded += 1;
        if (options.maxEvents !== undefined && forwarded >= options.maxEvents) {
          await response.body.cancel().catch(() => undefined);
          return forwarded;
        }
      }
    } catch (error) {
      if (options.signal?.aborted) break;
      // The connection dropped: reconnect and resume after the last event.
    }
  }
  return forwarded;
}
