// What an identity check's events carry (docs/identity.md, "Events"): the check as the white_label read answers
// it, without its people.
export function verificationEventOf(check: Record<string, any>): Record<string, unknown> {
  const { people: _people, ...event } = check;
  return event;
}
