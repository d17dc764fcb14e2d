// How the payment page writes money and time: pounds from integer pence without floating point, and instants
// in UK time, which is what a UK company's director reads.

export function formatPounds(pence: number): string {
  const pounds = Math.floor(pence / 100);
  return `£${pounds.toLocaleString("en-GB")}.${String(pence % 100).padStart(2, "0")}`;
}

const UK_TIME = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "Europe/London" });

export function formatUkTime(instant: Date): string {
  return `${UK_TIME.format(instant)} UK time`;
}
