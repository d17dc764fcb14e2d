// A product's figures as a two-column table: what each figure is, and its value from the pricing configuration.
import type { ReactNode } from "react";

export function FigureTable({ caption, rows }: { caption: string; rows: ReadonlyArray<readonly [string, ReactNode]> }) {
  return (
    <table className="data-table">
      <caption>{caption}</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
