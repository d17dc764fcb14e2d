// The one string schema for every string that comes from outside (a request's body, query, path parameters and
// OAuth forms, and the admin CLI's input), so that nothing PostgreSQL cannot store reaches a query. Build such
// strings on it (`requestString().min(1).max(255)`, `requestString().pipe(z.url())`), never on `z.string()`:
// tests/unit/source-boundaries.test.ts holds the source to that.
//
// Refused, as 422 `validation_failed` with reason `invalid_characters` on the field (a path parameter, like any
// that names nothing, is 404 `not_found`):
// - NUL (U+0000): text and jsonb cannot hold it. Bound as a parameter it is a data error; written into the
//   application create's batched message (lib/applications/batched-transaction.ts) it ends the message early.
// - an unpaired UTF-16 surrogate (JSON `"\ud800"`): it has no UTF-8 form, so text would silently store U+FFFD
//   instead of what was sent (metadata is stored verbatim, spec 2.1) and jsonb refuses its escape.
import { z } from "zod";
import { fieldLabel } from "./validation";

function isStorableText(value: string): boolean {
  return !value.includes("\u0000") && value.isWellFormed();
}

export function requestString() {
  return z.string().refine(isStorableText, {
    error: (issue) => `${fieldLabel(issue.path)} must not contain NUL (U+0000) or unpaired surrogate characters.`,
    params: { reason: "invalid_characters" },
    // Checks after this one (lengths, formats) would only describe the same bad value again.
    abort: true,
  });
}
