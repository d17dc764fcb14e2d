// The one way money is written for people: pounds from integer pence, in integer arithmetic (never a float
// that could print £0.1000000001), as a UK reader writes it. Money on the wire stays integer pence.

const THOUSANDS = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 0 });

/** Pounds and pence: `£1,234.56`, `-£10,000.00` for money going out. */
export function formatPounds(pence: number): string {
  const magnitude = Math.abs(pence);
  const pounds = THOUSANDS.format(Math.floor(magnitude / 100));
  return `${pence < 0 ? "-" : ""}£${pounds}.${String(magnitude % 100).padStart(2, "0")}`;
}

/** Whole pounds, for bounds and amounts that never carry pence: `£250,000`. Pence below a pound are dropped. */
export function formatWholePounds(pence: number): string {
  const magnitude = Math.abs(pence);
  return `${pence < 0 ? "-" : ""}£${THOUSANDS.format(Math.floor(magnitude / 100))}`;
}
