// The local forwarder behind `cli listen` (spec 6.4, like `stripe listen`): reads the project's new sandbox
// events from GET /partner/v1/events/stream and POSTs each, byte for byte, to a local address, signed with the
// developer's forwarding secret exactly as a real delivery is. When the connection drops (the server restarts,
// the network goes away) it reconnects with back-off and resumes after the last event it forwarded, so nothing
// is lost or sent twice; an access token that expires meanwhile is minted again.
import { setTimeout as sleep } from "node:timers/promises";
import { clock } from "../clock";
import { SIGNATURE_HEADER, signWebhookPayload } from "./signature";

export interface ForwardedDelivery {
  eventId: string;
  type: string;
  /** The local receiver's status, or null when it gave none (see `error`). */
  status: number | null;
  /** Why there is no status: "connection refused", "timed out after 10s", ... */
  error?: string;
  /** For a status other than 2xx: the start of the response body, on one line. */
  body?: string;
}

export interface ConnectionLost {
  reason: string;
  /** 1 for the first attempt after the connection dropped, 2 for the next, ... */
  attempt: number;
  delayMs: number;
}

export interface ForwarderOptions {
  apiUrl: string;
  clientId: string;
  apiKey: string;
  forwardTo: string;
  types?: string[];
  /** The secret every forwarded event is signed with. */
  secret: string;
  onReady?: () => void;
  onDelivery?: (delivery: ForwardedDelivery) => void;
  /** The stream is gone; the next attempt follows in `delayMs`. */
  onConnectionLost?: (lost: ConnectionLost) => void;
  /** The stream is back after one or more onConnectionLost. */
  onReconnected?: () => void;
  /** Stop after forwarding this many events (for scripts and tests); runs until aborted otherwise. */
  maxEvents?: number;
  signal?: AbortSignal;
  /** The wait before reconnect attempt `attempt` (1, 2, ...): reconnectDelayMs unless a test shortens it. */
  reconnectDelay?: (attempt: number) => number;
  /** How long the local receiver has to answer: 10 s, as the platform gives a webhook endpoint. */
  forwardTimeoutMs?: number;
}

/** A problem reconnecting cannot fix (bad credentials, a refusal by the API); ends the forwarder. */
export class ForwarderError extends Error {
  override name = "ForwarderError";
}

/** The stream cannot be read right now (refused, dropped, a 5xx or 429): worth trying again after a pause. */
class StreamUnavailable extends Error {
  override name = "StreamUnavailable";
}

const DEFAULT_FORWARD_TIMEOUT_MS = 10_000;
const FIRST_RECONNECT_DELAY_MS = 1_000;
const LONGEST_RECONNECT_DELAY_MS = 30_000;
/** How much of a failed answer's body is printed. */
const BODY_EXCERPT_CHARACTERS = 200;
/**
 * Every event id sorts after the bare prefix. A stream that opened before the project had any event carries no
 * cursor; resuming from here rather than from "now" keeps the events recorded while the connection was down.
 */
const BEFORE_EVERY_EVENT = "evt_";

/**
 * 1 s, doubling up to 30 s, each ±25% so that many forwarders cut off by the same restart do not come back in step.
 * `attempt` counts from 1 and starts again after every successful connection.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(LONGEST_RECONNECT_DELAY_MS, FIRST_RECONNECT_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.min(LONGEST_RECONNECT_DELAY_MS, Math.round(base * (0.75 + random() * 0.5)));
}

/** "4s", "30s", or milliseconds below a second: how the forwarder states a wait or a timeout. */
export function formatDuration(ms: number): string {
  return ms < 1_000 ? `${ms}ms` : `${Math.round(ms / 100) / 10}s`;
}

/** A failed fetch as a reader wants it: "connection refused" rather than "fetch failed". */
export function describeFetchError(error: unknown, timeoutMs?: number): string {
  if (error instanceof Error && error.name === "TimeoutError") return timeoutMs === undefined ? "timed out" : `timed out after ${formatDuration(timeoutMs)}`;
  const cause = error instanceof Error && error.cause instanceof Error ? (error.cause as NodeJS.ErrnoException) : undefined;
  switch (cause?.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset";
    case "UND_ERR_SOCKET":
      return "connection closed";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found";
  }
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** The start of a response body on one line, for printing. Never throws: a body cut short gives what arrived. */
async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    // Read a little more than is printed: whitespace collapses, and the reader should see that it was cut.
    while (text.length <= BODY_EXCERPT_CHARACTERS * 4) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // The receiver hung up or the timeout struck mid-body: the status already says what it made of the event.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > BODY_EXCERPT_CHARACTERS ? `${line.slice(0, BODY_EXCERPT_CHARACTERS)}…` : line;
}

async function requestToken(options: ForwarderOptions): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${options.apiUrl}/partner/v1/oauth/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.apiKey)}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ grant_type: "client_credentials", scope: "events:read" }),
      signal: options.signal,
    });
  } catch (error) {
    throw new StreamUnavailable(describeFetchError(error));
  }
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string; error_description?: string };
  if (response.status === 429 || response.status >= 500) throw new StreamUnavailable(`the token endpoint answered ${response.status}`);
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

// A plain fetch, not the platform's guarded webhook client: the target is the developer's own machine, which that
// client exists to keep deliveries away from, and fetch reaches `localhost` whichever address family it listens on.
async function forwardOne(options: ForwarderOptions, frame: StreamFrame & { data: string }): Promise<ForwardedDelivery> {
  const delivery = { eventId: frame.id ?? "", type: frame.event ?? "" };
  const timeoutMs = options.forwardTimeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  try {
    const response = await fetch(options.forwardTo, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: signWebhookPayload(frame.data, [options.secret], Math.floor(clock.now().getTime() / 1000)),
        "service-event-id": delivery.eventId,
      },
      body: frame.data,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel().catch(() => undefined);
      return { ...delivery, status: response.status };
    }
    return { ...delivery, status: response.status, body: await readExcerpt(response) };
  } catch (error) {
    return { ...delivery, status: null, error: describeFetchError(error, timeoutMs) };
  }
}

interface ForwarderState {
  token: string;
  /** The last id the stream gave, once forwarded: where a new connection resumes. */
  cursor: string | null;
  connected: boolean;
  forwarded: number;
  /** Reconnect attempts since the connection was last good. */
  failures: number;
}

/** Opens the stream after `state.cursor`, minting a new token once if the current one has expired. */
async function openStream(options: ForwarderOptions, state: ForwarderState): Promise<ReadableStream<Uint8Array>> {
  const query = options.types?.length ? `?types=${encodeURIComponent(options.types.join(","))}` : "";
  const cursor = state.cursor ?? (state.connected ? BEFORE_EVERY_EVENT : null);
  for (let freshToken = false; ; freshToken = true) {
    let response: Response;
    try {
      response = await fetch(`${options.apiUrl}/partner/v1/events/stream${query}`, {
        headers: { authorization: `Bearer ${state.token}`, accept: "text/event-stream", ...(cursor ? { "last-event-id": cursor } : {}) },
        signal: options.signal,
      });
    } catch (error) {
      throw new StreamUnavailable(describeFetchError(error));
    }
    if (response.ok && response.body) return response.body;
    const text = await readExcerpt(response);
    if (response.status === 401 && !freshToken) {
      state.token = await requestToken(options);
      continue;
    }
    if (response.status === 429 || response.status >= 500) throw new StreamUnavailable(`the event stream answered ${response.status}`);
    throw new ForwarderError(`the event stream answered ${response.status}: ${text}`);
  }
}

/** Forwards what the stream carries until it ends (false) or `maxEvents` are forwarded (true). */
async function relayStream(options: ForwarderOptions, state: ForwarderState, body: ReadableStream<Uint8Array>): Promise<boolean> {
  const frames = readServerSentEvents(body);
  for (;;) {
    let next: IteratorResult<StreamFrame>;
    try {
      next = await frames.next();
    } catch (error) {
      throw new StreamUnavailable(describeFetchError(error));
    }
    if (next.done) return false;
    const frame = next.value;
    if (frame.data !== null) {
      options.onDelivery?.(await forwardOne(options, { ...frame, data: frame.data }));
      state.forwarded += 1;
    }
    // Moved only once the event is forwarded: a connection lost before then sends it again, after never.
    if (frame.id !== undefined) state.cursor = frame.id;
    if (options.maxEvents !== undefined && state.forwarded >= options.maxEvents) {
      await frames.return(undefined);
      return true;
    }
  }
}

/**
 * Runs until aborted (or `maxEvents` are forwarded); returns how many events were forwarded. Until the first
 * connection succeeds every problem is thrown (as a ForwarderError naming the API); after it, an unavailable
 * stream is retried with back-off and reported through onConnectionLost.
 */
export async function forwardEvents(options: ForwarderOptions): Promise<number> {
  const state: ForwarderState = { token: "", cursor: null, connected: false, forwarded: 0, failures: 0 };
  const delayFor = options.reconnectDelay ?? reconnectDelayMs;
  while (!options.signal?.aborted) {
    try {
      state.token ||= await requestToken(options);
      const body = await openStream(options, state);
      if (state.failures > 0) options.onReconnected?.();
      state.failures = 0;
      if (!state.connected) options.onReady?.();
      state.connected = true;
      if (await relayStream(options, state, body)) break;
      // The stream ended cleanly (the server closes it after STREAM_MAX_SECONDS): reconnect at once.
    } catch (error) {
      if (options.signal?.aborted) break;
      if (!(error instanceof StreamUnavailable)) throw error;
      if (!state.connected) throw new ForwarderError(`could not reach ${options.apiUrl}: ${error.message}`);
      state.failures += 1;
      const delayMs = delayFor(state.failures);
      options.onConnectionLost?.({ reason: error.message, attempt: state.failures, delayMs });
      await sleep(delayMs, undefined, { signal: options.signal }).catch(() => undefined);
    }
  }
  return state.forwarded;
}
