// An account's repayment schedule as a server-rendered SVG bar chart (principal and interest per instalment), with
// the same figures as a table for anyone who does not read the chart.
import { formatPounds } from "@/lib/money";
import type { AccountObject } from "@/lib/accounts/serialize";
import { formatShortDate, INSTALMENT_STATUS_WORDS } from "./words";

type Instalment = AccountObject["schedule"][number];

const WIDTH = 320;
const HEIGHT = 160;
const AXIS = 30;

/** A bar's month under it, centred; the year on a second line under the first bar and each January. */
function AxisLabel({ x, dueDate, withYear }: { x: number; dueDate: string; withYear: boolean }) {
  const [month, year] = formatShortDate(dueDate).replace(/^\d+ /, "").split(" ");
  return (
    <text className="account-axis" x={x} y={HEIGHT - AXIS + 12} textAnchor="middle">
      {month}
      {withYear ? (
        <tspan x={x} dy={12}>
          {year}
        </tspan>
      ) : null}
    </text>
  );
}

export function ScheduleChart({ accountId, schedule }: { accountId: string; schedule: readonly Instalment[] }) {
  if (schedule.length === 0) return <p className="account-empty">No instalments are scheduled yet: they appear as money is drawn.</p>;
  const largest = Math.max(...schedule.map((instalment) => instalment.amount_pence), 1);
  const slot = WIDTH / schedule.length;
  const barWidth = Math.max(slot * 0.7, 1);
  const scale = (pence: number) => (pence / largest) * (HEIGHT - AXIS - 4);
  const titleId = `schedule-title-${accountId}`;
  const labelEvery = Math.ceil(schedule.length / 6);
  return (
    <figure className="account-chart">
      <figcaption id={titleId}>Each instalment, split into what repays the loan (principal) and interest. Paid instalments are paler.</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} focusable="false">
        {schedule.map((instalment, index) => {
          const x = index * slot + (slot - barWidth) / 2;
          const principal = scale(instalment.principal_pence);
          const interest = scale(instalment.interest_pence);
          const paid = instalment.status === "paid" ? " account-bar-paid" : "";
          return (
            <g key={instalment.number}>
              <rect className={`account-bar-principal${paid}`} x={x} y={HEIGHT - AXIS - principal} width={barWidth} height={principal} />
              <rect className={`account-bar-interest${paid}`} x={x} y={HEIGHT - AXIS - principal - interest} width={barWidth} height={interest} />
              {index % labelEvery === 0 ? <AxisLabel x={x + barWidth / 2} dueDate={instalment.due_date} withYear={index === 0 || instalment.due_date.slice(5, 7) === "01"} /> : null}
            </g>
          );
        })}
      </svg>
      <ul className="account-legend">
        <li>
          <span className="account-key account-key-principal" aria-hidden="true" />
          Principal
        </li>
        <li>
          <span className="account-key account-key-interest" aria-hidden="true" />
          Interest
        </li>
      </ul>
      <details className="account-details">
        <summary>Show the schedule as a table</summary>
        <div className="account-table-region" role="region" aria-label="Repayment schedule table" tabIndex={0}>
          <table className="account-table">
            <caption>Repayment schedule</caption>
            <thead>
              <tr>
                <th scope="col">Due</th>
                <th scope="col" className="account-money">
                  Amount
                </th>
                <th scope="col" className="account-money">
                  Interest
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {schedule.map((instalment) => (
                <tr key={instalment.number}>
                  <td>{formatShortDate(instalment.due_date)}</td>
                  <td className="account-money">{formatPounds(instalment.amount_pence)}</td>
                  <td className="account-money">{formatPounds(instalment.interest_pence)}</td>
                  <td>{INSTALMENT_STATUS_WORDS[instalment.status] ?? instalment.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
