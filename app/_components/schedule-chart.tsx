// An account's repayment schedule as a server-rendered SVG bar chart (principal and interest per instalment), with
// the same figures as a table for anyone who does not read the chart.
import { BarChart, type ChartBar } from "@/app/_components/bar-chart";
import { formatPounds } from "@/lib/money";
import type { AccountObject } from "@/lib/accounts/serialize";
import { formatShortDate, INSTALMENT_STATUS_WORDS } from "./loan-words";

type Instalment = AccountObject["schedule"][number];

/** A bar's month under it; the year beneath under the first bar and each January. */
function monthLabel(dueDate: string, withYear: boolean): string[] {
  const [month, year] = formatShortDate(dueDate).replace(/^\d+ /, "").split(" ");
  return withYear ? [month!, year!] : [month!];
}

export function ScheduleChart({ accountId, schedule }: { accountId: string; schedule: readonly Instalment[] }) {
  if (schedule.length === 0) return <p className="account-empty">No instalments are scheduled yet: they appear as money is drawn.</p>;
  const titleId = `schedule-title-${accountId}`;
  const labelEvery = Math.ceil(schedule.length / 6);
  const bars: ChartBar[] = schedule.map((instalment, index) => {
    const paid = instalment.status === "paid" ? " account-bar-paid" : "";
    return {
      key: instalment.number,
      segments: [
        { value: instalment.principal_pence, className: `account-bar-principal${paid}` },
        { value: instalment.interest_pence, className: `account-bar-interest${paid}` },
      ],
      label: index % labelEvery === 0 ? monthLabel(instalment.due_date, index === 0 || instalment.due_date.slice(5, 7) === "01") : undefined,
    };
  });
  return (
    <figure className="account-chart">
      <figcaption id={titleId}>Each instalment, split into what repays the loan (principal) and interest. Paid instalments are paler.</figcaption>
      <BarChart bars={bars} maxValue={Math.max(...schedule.map((instalment) => instalment.amount_pence), 1)} width={320} height={160} labelHeight={30} labelClassName="account-axis" labelledBy={titleId} />
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
