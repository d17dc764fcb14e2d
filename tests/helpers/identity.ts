// What an identity check's events carry (docs/identity.md, "Events"): the check as the white_label read answers
// it, with each person's role and result in place of the people.
export function verificationEventOf(check: Record<string, any>): Record<string, unknown> {
  const { people, ...rest } = check as { people: Array<{ role: string; result: string }> };
  return { ...rest, results: people.map(({ role, result }) => ({ role, result })) };
}
