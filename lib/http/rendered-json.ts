// A response body that is already JSON text (PostgreSQL renders the hottest reads itself): sent as it is,
// never parsed and serialised again.
export class RenderedJson {
  constructor(readonly text: string) {}
}
