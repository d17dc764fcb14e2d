// Responses whose whole body is in memory when they are made: JSON a handler returns, an error, a replayed
// idempotent reply, almost every API reply. A web Response made from a string wraps it in a stream at once; our
// HTTP server (lib/http/direct-router.ts) writes a body known here in one call with its length, so the stream is
// made only for a reader that asks for one (Next, serving the route; a test reading `json()`). Making it, and
// reading it back, cost a large share of a small reply's time (docs/performance.md).

/**
 * Where a response keeps its whole body: a registered symbol, because the server's copy of this module and the
 * route bundles' copies are different modules (Next bundles each), and each must find what another made.
 */
const WHOLE_BODY = Symbol.for("lending.response.whole-body");

/** Statuses whose responses may carry no body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

class WholeBodyResponse extends Response {
  readonly [WHOLE_BODY]: string | Uint8Array<ArrayBuffer>;
  #read: Response | undefined;

  constructor(whole: string | Uint8Array<ArrayBuffer>, init: ResponseInit) {
    if (NULL_BODY_STATUSES.has(init.status ?? 200)) throw new TypeError(`A response with status ${init.status} cannot have a body.`);
    super(null, init);
    // What `new Response(text)` adds: a string body is plain text unless the headers name a type.
    if (typeof whole === "string" && !this.headers.has("content-type")) this.headers.set("content-type", "text/plain;charset=UTF-8");
    this[WHOLE_BODY] = whole;
  }

  /** The response as a reader sees it, its body a stream: made on the first read, with the headers as they are then. */
  #asRead(): Response {
    this.#read ??= new Response(this[WHOLE_BODY], { status: this.status, statusText: this.statusText, headers: this.headers });
    return this.#read;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#asRead().body;
  }

  override get bodyUsed(): boolean {
    return this.#read?.bodyUsed ?? false;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#asRead().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#asRead().blob();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#asRead().bytes();
  }

  override formData(): Promise<FormData> {
    return this.#asRead().formData();
  }

  override json(): Promise<unknown> {
    return this.#asRead().json();
  }

  override text(): Promise<string> {
    return this.#asRead().text();
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: the body has already been read.");
    return new WholeBodyResponse(this[WHOLE_BODY], { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) });
  }
}

/** A response with `body`, kept whole: a string without a Content-Type is plain text, as `new Response` makes it. */
export function wholeBodyResponse(body: string | Uint8Array<ArrayBuffer>, init: ResponseInit): Response {
  return new WholeBodyResponse(body, init);
}

/** As `Response.json`: the value as JSON text, `Content-Type: application/json` unless `init` names a type. */
export function jsonResponse(value: unknown, init: ResponseInit = {}): Response {
  const text = JSON.stringify(value);
  // What Response.json refuses (undefined, a function): its TypeError, not a body of "undefined".
  if (text === undefined) return Response.json(value, init);
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return new WholeBodyResponse(text, { ...init, headers });
}

/** The body `response` was made with, when it was made here; undefined for any other. */
export function wholeBodyOf(response: Response): string | Uint8Array | undefined {
  return (response as Partial<Record<typeof WHOLE_BODY, string | Uint8Array>>)[WHOLE_BODY];
}
