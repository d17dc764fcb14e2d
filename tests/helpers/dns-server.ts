// A DNS server the test controls, on 127.0.0.1 over UDP (node:dgram): it records every query and answers each as the
// test says, with addresses, a "no such name", or silence (a name server that never answers). Point the platform at it
// with WEBHOOK_DNS_SERVERS. Only what a resolver needs is implemented: one question per query, A and AAAA answers.
import dgram from "node:dgram";
import { once } from "node:events";
import { isIP } from "node:net";
import { ipAddressBytes } from "./ip-bytes";

export type QueryType = "A" | "AAAA" | "other";

export interface DnsQuery {
  name: string;
  type: QueryType;
}

/** Addresses (those of the query's family are sent), NXDOMAIN, or no answer at all. */
export type DnsAnswer = { addresses: string[] } | "nxdomain" | "silence";

export interface DnsServer {
  /** `127.0.0.1:port`, as WEBHOOK_DNS_SERVERS takes it. */
  address: string;
  queries: DnsQuery[];
  /** Decides each answer; replace it to change the server's behaviour mid-test. */
  answer: (query: DnsQuery, index: number) => DnsAnswer;
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;
const CLASS_IN = 1;
const HEADER_BYTES = 12;

function queryTypeOf(code: number): QueryType {
  if (code === TYPE_A) return "A";
  if (code === TYPE_AAAA) return "AAAA";
  return "other";
}

/** The question's name and where the question section ends (after QTYPE and QCLASS). */
function readQuestion(message: Buffer): { name: string; typeCode: number; end: number } {
  const labels: string[] = [];
  let offset = HEADER_BYTES;
  for (let length = message[offset]!; length !== 0; length = message[offset]!) {
    labels.push(message.subarray(offset + 1, offset + 1 + length).toString("ascii"));
    offset += 1 + length;
  }
  offset += 1;
  return { name: labels.join("."), typeCode: message.readUInt16BE(offset), end: offset + 4 };
}

function resourceRecord(typeCode: number, address: string): Buffer {
  const data = ipAddressBytes(address);
  const record = Buffer.alloc(12);
  record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  record.writeUInt16BE(typeCode, 2);
  record.writeUInt16BE(CLASS_IN, 4);
  record.writeUInt32BE(60, 6); // TTL
  record.writeUInt16BE(data.length, 10);
  return Buffer.concat([record, data]);
}

function response(query: Buffer, question: ReturnType<typeof readQuestion>, answer: Exclude<DnsAnswer, "silence">): Buffer {
  const family = question.typeCode === TYPE_A ? 4 : question.typeCode === TYPE_AAAA ? 6 : 0;
  const records = answer === "nxdomain" ? [] : answer.addresses.filter((address) => isIP(address) === family).map((address) => resourceRecord(question.typeCode, address));
  const header = Buffer.alloc(HEADER_BYTES);
  query.copy(header, 0, 0, 2); // the query's id
  // QR (a response), the query's RD, RA; RCODE 3 is NXDOMAIN.
  header.writeUInt16BE(0x8080 | (query.readUInt16BE(2) & 0x0100) | (answer === "nxdomain" ? 3 : 0), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  return Buffer.concat([header, query.subarray(HEADER_BYTES, question.end), ...records]);
}

export async function startDnsServer(answer: DnsServer["answer"] = () => "silence"): Promise<DnsServer> {
  const socket = dgram.createSocket("udp4");
  const server: DnsServer = {
    address: "",
    queries: [],
    answer,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on("message", (message, remote) => {
    const question = readQuestion(message);
    const query = { name: question.name, type: queryTypeOf(question.typeCode) };
    server.queries.push(query);
    const decided = server.answer(query, server.queries.length - 1);
    if (decided !== "silence") socket.send(response(message, question, decided), remote.port, remote.address);
  });
  socket.bind(0, "127.0.0.1");
  await once(socket, "listening");
  server.address = `127.0.0.1:${socket.address().port}`;
  return server;
}
