// The calculator's picture: one bar per payment, as tall as the amount still owed after it, so a visitor sees the
// debt fall to nothing. An SVG with a title and description for assistive technology; the table beside it is the
// same data in words.
import { BarChart, type ChartBar } from "@/app/_components/bar-chart";
import { formatPounds } from "@/lib/money";
import type { ScheduledPayment } from "@/lib/site/repayment-schedule";

export function RepaymentChart({ schedule, totalRepayablePence }: { schedule: ScheduledPayment[]; totalRepayablePence: number }) {
  const points = [{ label: "Start", leftPence: totalRepayablePence }, ...schedule.map((payment) => ({ label: `Day ${payment.dueDay}`, leftPence: payment.leftAfterPence }))];
  const labelEvery = Math.ceil(points.length / 8);
  const bars: ChartBar[] = points.map((point, index) => ({
    key: point.label,
    segments: [{ value: point.leftPence, className: index === 0 ? "bar bar--start" : "bar" }],
    label: index % labelEvery === 0 || index === points.length - 1 ? [point.label] : undefined,
  }));
  return (
    <BarChart
      className="repayment-chart"
      bars={bars}
      maxValue={totalRepayablePence}
      width={560}
      height={220}
      labelHeight={28}
      baselineClassName="axis"
      labelledBy="repayment-chart-title repayment-chart-description"
    >
      <title id="repayment-chart-title">Amount owed after each payment</title>
      <desc id="repayment-chart-description">{`Starts at ${formatPounds(totalRepayablePence)} and falls to ${formatPounds(0)} over ${schedule.length} payments.`}</desc>
    </BarChart>
  );
}

export function RepaymentTable({ schedule }: { schedule: ScheduledPayment[] }) {
  return (
    <table className="data-table">
      <caption>Repayment schedule</caption>
      <thead>
        <tr>
          <th scope="col">Payment</th>
          <th scope="col">Due</th>
          <th scope="col" className="number">
            Amount
          </th>
          <th scope="col" className="number">
            Left to pay
          </th>
        </tr>
      </thead>
      <tbody>
        {schedule.map((payment) => (
          <tr key={payment.number}>
            <td>{payment.number}</td>
            <td>Day {payment.dueDay}</td>
            <td className="number">{formatPounds(payment.amountPence)}</td>
            <td className="number">{formatPounds(payment.leftAfterPence)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
