// A TCP port on 127.0.0.1 that was free a moment ago: for servers a test starts itself (redis-server, PostgreSQL).
import { once } from "node:events";
import net from "node:net";

export async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
