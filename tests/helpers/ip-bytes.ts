// The bytes of an IP address, as certificates (subjectAltName iPAddress) and DNS answers (A, AAAA) carry them.
import { isIP } from "node:net";

/** 4 bytes for IPv4, 16 for IPv6 (`::` expanded; no dotted-quad tail, which the test helpers never use). */
export function ipAddressBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split(".").map(Number));
  const [head = "", tail = ""] = address.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const zeros = address.includes("::") ? new Array<number>(8 - groups(head).length - groups(tail).length).fill(0) : [];
  return Buffer.from([...groups(head), ...zeros, ...groups(tail)].flatMap((group) => [group >> 8, group & 0xff]));
}
