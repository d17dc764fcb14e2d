// Requests our HTTP server makes for a route handler (lib/http/direct-router.ts). A web Request made with a body
// wraps Node's stream in a web stream at once, and reading it back goes chunk by chunk through that stream's
// promises: a large share of a small POST's time. This request keeps Node's stream, which the route builder's
// body reader iterates directly (lib/http/body.ts), and makes the web stream only for a reader that asks for it.
import { Readable } from "node:stream";

/**
 * Where a request keeps Node's body stream: a registered symbol, because the server's copy of this module and
 * the route bundles' copies are different modules (Next bundles each), and each must find what another made.
 */
const NODE_BODY = Symbol.for("lending.request.node-body");

class NodeBodyRequest extends Request {
  /** Node's stream, until a web reader asks for the body: from then on the web stream reads it. */
  [NODE_BODY]: Readable | undefined;
  readonly #source: Readable;
  #streamed: Request | undefined;

  constructor(url: URL, init: Omit<RequestInit, "body">, body: Readable) {
    super(url, init);
    this.#source = body;
    this[NODE_BODY] = body;
  }

  /** The request as a web reader sees it, its body a stream over Node's: made on the first read. */
  #asStreamed(): Request {
    if (!this.#streamed) {
      this[NODE_BODY] = undefined;
      this.#streamed = new Request(this.url, {
        method: this.method,
        headers: this.headers,
        body: Readable.toWeb(this.#source) as ReadableStream,
        duplex: "half",
        signal: this.signal,
      } as RequestInit);
    }
    return this.#streamed;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#asStreamed().body;
  }

  override get bodyUsed(): boolean {
    return this.#streamed?.bodyUsed ?? this.#source.readableDidRead;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#asStreamed().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#asStreamed().blob();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#asStreamed().bytes();
  }

  override formData(): Promise<FormData> {
    return this.#asStreamed().formData();
  }

  override json(): Promise<unknown> {
    return this.#asStreamed().json();
  }

  override text(): Promise<string> {
    return this.#asStreamed().text();
  }

  override clone(): Request {
    return this.#asStreamed().clone();
  }
}

/** A request whose body is `body`, Node's stream, read directly by nodeBodyOf's caller or as a web stream by anyone else. */
export function nodeBodyRequest(url: URL, init: Omit<RequestInit, "body">, body: Readable): Request {
  return new NodeBodyRequest(url, init, body);
}

/** Node's stream of the request's body, when nodeBodyRequest made it and no web reader has asked for it. */
export function nodeBodyOf(request: Request): Readable | undefined {
  return (request as Partial<Record<typeof NODE_BODY, Readable>>)[NODE_BODY];
}
