// A response body that is already JSON text (PostgreSQL renders the hottest reads itself; a cached catalogue
// is rendered once): sent as it is, never parsed and serialised again.
import { Prisma } from "../generated/prisma/client";

const encoder = new TextEncoder();

export class RenderedJson {
  #bytes: Uint8Array<ArrayBuffer> | undefined;

  constructor(readonly text: string) {}

  /** The UTF-8 body, encoded once however many responses send it. */
  get bytes(): Uint8Array<ArrayBuffer> {
    this.#bytes ??= encoder.encode(this.text);
    return this.#bytes;
  }
}

/** A timestamptz column as `Date.prototype.toISOString` writes it (UTC, milliseconds), or null: for objects PostgreSQL renders. */
export function isoTimestampSql(column: string): Prisma.Sql {
  return Prisma.sql`to_char(${Prisma.raw(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
