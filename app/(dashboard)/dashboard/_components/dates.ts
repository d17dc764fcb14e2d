// How the dashboard writes a time and a day: the UK's clock, in words a person reads at a glance.
const dateTime = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "Europe/London" });
const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "Europe/London" });

export const formatDateTime = (at: Date | string) => dateTime.format(new Date(at));
export const formatDay = (at: Date | string) => day.format(new Date(at));
