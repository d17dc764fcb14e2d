// oidc-provider's storage adapter (its interface: upsert, find, findByUid, findByUserCode, consume, destroy,
// revokeByGrantId) over one Prisma table (lib/oidc/artifacts.ts). Clients are not stored here: the `Client`
// model reads our own table of relying parties (lib/oidc/clients.ts).
import { clock } from "../clock";
import { db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { signInClientMetadata } from "./clients";
import { HASHED_KINDS, storedArtifactId } from "./artifacts";

type Payload = Record<string, unknown>;

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export class PrismaSignInAdapter {
  constructor(private readonly kind: string) {}

  private key(id: string) {
    return { kind_id: { kind: this.kind, id: storedArtifactId(this.kind, id) } };
  }

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    // A token's payload carries its value as `jti`: kept out, it is restored from the value presented on a read.
    const { jti: _value, ...rest } = payload;
    const stored = (HASHED_KINDS.has(this.kind) ? rest : payload) as Prisma.InputJsonValue;
    const fields = {
      payload: stored,
      grantId: typeof payload.grantId === "string" ? payload.grantId : null,
      uid: typeof payload.uid === "string" ? payload.uid : null,
      expiresAt: typeof expiresIn === "number" ? new Date(clock.now().getTime() + expiresIn * 1000) : null,
    };
    await db().oidcArtifact.upsert({ where: this.key(id), create: { kind: this.kind, id: storedArtifactId(this.kind, id), ...fields }, update: fields });
  }

  async find(id: string): Promise<Payload | undefined> {
    if (this.kind === "Client") return signInClientMetadata(id);
    const row = await db().oidcArtifact.findUnique({ where: this.key(id) });
    if (!row) return undefined;
    return {
      ...(row.payload as Payload),
      ...(HASHED_KINDS.has(this.kind) ? { jti: id } : {}),
      ...(row.consumedAt ? { consumed: epochSeconds(row.consumedAt) } : {}),
    };
  }

  async findByUid(uid: string): Promise<Payload | undefined> {
    const row = await db().oidcArtifact.findFirst({ where: { kind: this.kind, uid } });
    return row ? (row.payload as Payload) : undefined;
  }

  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await db().oidcArtifact.updateMany({ where: { kind: this.kind, id: storedArtifactId(this.kind, id) }, data: { consumedAt: clock.now() } });
  }

  async destroy(id: string): Promise<void> {
    await db().oidcArtifact.deleteMany({ where: { kind: this.kind, id: storedArtifactId(this.kind, id) } });
  }

  /** oidc-provider calls this on each model whose rows a grant owns (codes, access and refresh tokens). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await db().oidcArtifact.deleteMany({ where: { grantId, kind: this.kind } });
  }
}
