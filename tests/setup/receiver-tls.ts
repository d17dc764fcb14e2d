// Makes the run's webhook-receiver certificate and has every test process trust it from its start: the workers
// inherit this process's environment, and Node reads NODE_EXTRA_CA_CERTS as a process starts (tests/helpers/tls.ts).
import { runCertificate } from "../helpers/tls";

export default function setup(): void {
  process.env.NODE_EXTRA_CA_CERTS = runCertificate().caFile;
}
