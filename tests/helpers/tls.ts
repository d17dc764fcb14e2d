// HTTPS for test receivers: a self-signed certificate made with node:crypto (no certificate tool or package), made
// once per run and trusted by the run's processes. Webhook URLs must be https (spec 4.6), so receivers on 127.0.0.1
// serve TLS; the platform's delivery client verifies certificates as it does in production, against Node's own trust
// store, to which the run adds this one certificate through Node's own NODE_EXTRA_CA_CERTS as each process starts.
// Nothing reads or rebuilds the machine's CA list: one holding a certificate OpenSSL cannot parse (a system or
// corporate bundle) would make that throw.
import { generateKeyPairSync, sign, X509Certificate } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { ipAddressBytes } from "./ip-bytes";

export interface TestCertificate {
  /** PEM private key (ECDSA P-256). */
  key: string;
  /** PEM certificate, signed by its own key: it is its own trust anchor. */
  cert: string;
}

/** The names and addresses the certificate is for: the test receivers' hosts. */
export const TEST_RECEIVER_HOSTS = ["127.0.0.1", "::1", "localhost", "hooks.example.test"] as const;

// DER, the few ASN.1 types an X.509 certificate needs (ITU-T X.690).
function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}
const sequence = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => der(0x31, Buffer.concat(items));
const explicit = (number: number, item: Buffer) => der(0xa0 | number, item);
const octetString = (content: Buffer) => der(0x04, content);
const bitString = (content: Buffer) => der(0x03, Buffer.concat([Buffer.from([0]), content]));
const utf8String = (text: string) => der(0x0c, Buffer.from(text, "utf8"));
/** YYMMDDHHMMSSZ: RFC 5280 wants UTCTime for dates before 2050. */
const utcTime = (at: Date) => der(0x17, Buffer.from(`${at.toISOString().slice(2, 19).replace(/[-:T]/g, "")}Z`, "ascii"));

/** A non-negative DER INTEGER: in its fewest bytes (OpenSSL refuses a redundant leading zero), with a leading 1 bit
 * (which would make it negative) escaped by a zero byte. */
function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && (bytes[start + 1]! & 0x80) === 0) start += 1;
  const minimal = bytes.subarray(start);
  return der(0x02, (minimal[0]! & 0x80) !== 0 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

function objectIdentifier(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split(".").map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) base128.unshift(0x80 | (value & 0x7f));
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

/** subjectAltName entries: an iPAddress ([7]) for addresses, a dNSName ([2]) for names. */
function subjectAltNames(hosts: readonly string[]): Buffer {
  return sequence(...hosts.map((host) => (isIP(host) ? der(0x87, ipAddressBytes(host)) : der(0x82, Buffer.from(host, "ascii")))));
}

const ECDSA_WITH_SHA256 = sequence(objectIdentifier("1.2.840.10045.4.3.2"));
const COMMON_NAME = "2.5.4.3";
const SUBJECT_ALT_NAME = "2.5.29.17";
const DAY_MS = 86_400_000;

/**
 * A self-signed certificate for `hosts`, valid from a day ago for a year (real time: TLS checks validity against
 * the machine's clock, not the platform's frozen one).
 */
export function createSelfSignedCertificate(
  hosts: readonly string[] = TEST_RECEIVER_HOSTS,
  serialNumber: Uint8Array = globalThis.crypto.getRandomValues(new Uint8Array(16)),
): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const name = sequence(set(sequence(objectIdentifier(COMMON_NAME), utf8String("lending-platform test receiver"))));
  const now = Date.now();
  const tbsCertificate = sequence(
    explicit(0, integer(Buffer.from([2]))), // v3, for the subjectAltName extension
    integer(Buffer.from(serialNumber)),
    ECDSA_WITH_SHA256,
    name,
    sequence(utcTime(new Date(now - DAY_MS)), utcTime(new Date(now + 365 * DAY_MS))),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    explicit(3, sequence(sequence(objectIdentifier(SUBJECT_ALT_NAME), octetString(subjectAltNames(hosts))))),
  );
  const signature = sign("sha256", tbsCertificate, { key: privateKey, dsaEncoding: "der" });
  const certificate = sequence(tbsCertificate, ECDSA_WITH_SHA256, bitString(signature));
  const base64Lines = certificate.toString("base64").match(/.{1,64}/g)!.join("\n");
  return {
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${base64Lines}\n-----END CERTIFICATE-----\n`,
  };
}

/** The run's certificate and the CA file holding it, passed from the process that made it to those it starts. */
export interface RunCertificate extends TestCertificate {
  caFile: string;
}

const INHERITED = "TEST_RECEIVER_TLS";

/**
 * The run's receiver certificate, made by the first caller: the process that starts the run (vitest's global setup,
 * Playwright's config), which passes it on through the environment its test processes inherit, and gives them
 * `caFile` as NODE_EXTRA_CA_CERTS (Node reads that variable only as a process starts).
 */
export function runCertificate(): RunCertificate {
  const inherited = process.env[INHERITED];
  if (inherited) return JSON.parse(inherited) as RunCertificate;
  const certificate = createSelfSignedCertificate();
  const caFile = path.join(mkdtempSync(path.join(os.tmpdir(), "lending-tests-")), "receiver-ca.pem");
  writeFileSync(caFile, certificate.cert);
  const made = { ...certificate, caFile };
  process.env[INHERITED] = JSON.stringify(made);
  return made;
}

/**
 * The certificate for a test's receivers, which every TLS client of this process trusts: the platform's delivery
 * client verifies it like any public certificate. Throws when this process was started without the run's CA file, so
 * a test that would only fail later on `self-signed certificate` says why instead.
 */
export function trustedTestCertificate(): TestCertificate {
  const { key, cert, caFile } = runCertificate();
  const fingerprint = new X509Certificate(cert).fingerprint256;
  if (!tls.getCACertificates("extra").some((extra) => new X509Certificate(extra).fingerprint256 === fingerprint)) {
    throw new Error(`This process does not trust the run's receiver certificate: start it with NODE_EXTRA_CA_CERTS=${caFile} (vitest's global setup does)`);
  }
  return { key, cert };
}
