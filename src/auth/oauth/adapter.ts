// The oidc-provider storage adapter on our database (table oauth_store, one row per artefact:
// sessions, interactions, codes, tokens, grants, registered clients …). Rows carry the grant id (so a
// grant's tokens are revoked together) and the account id (so the account page can list a person's grants).
import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DB } from '../../store/types.ts';
import { nowIso } from '../../store/json.ts';

/** Models whose find() may resolve a client that is not stored (client ID metadata documents). */
export type ClientFallback = (id: string) => Promise<AdapterPayload | undefined>;

export function kyselyAdapter(db: Kysely<DB>, clientFallback?: ClientFallback): new (model: string) => Adapter {
  let sweptAt = 0;
  const live = (
    row: { expires_at: string | null; payload: string; consumed_at: string | null } | undefined,
  ): AdapterPayload | undefined => {
    if (!row) return undefined;
    if (row.expires_at && row.expires_at <= nowIso()) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    if (row.consumed_at) payload.consumed = Math.floor(Date.parse(row.consumed_at) / 1000);
    return payload;
  };
  const COLS = ['payload', 'expires_at', 'consumed_at'] as const;

  return class KyselyAdapter implements Adapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        payload: JSON.stringify(payload),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        account_id: typeof payload.accountId === 'string' ? payload.accountId : null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
      };
      await db
        .insertInto('oauth_store')
        .values({ id, model: this.model, consumed_at: null, ...row })
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
        .execute();
      // Expired artefacts are swept at most once a minute.
      if (Date.now() - sweptAt > 60_000) {
        sweptAt = Date.now();
        await db.deleteFrom('oauth_store').where('expires_at', '<', nowIso()).execute();
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('oauth_store')
        .select(COLS)
        .where('model', '=', this.model)
        .where('id', '=', id)
        .executeTakeFirst();
      const found = live(row);
      if (!found && this.model === 'Client' && clientFallback) return clientFallback(id);
      return found;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return live(
        await db
          .selectFrom('oauth_store')
          .select(COLS)
          .where('model', '=', this.model)
          .where('user_code', '=', userCode)
          .executeTakeFirst(),
      );
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return live(
        await db
          .selectFrom('oauth_store')
          .select(COLS)
          .where('model', '=', this.model)
          .where('uid', '=', uid)
          .executeTakeFirst(),
      );
    }

    async consume(id: string): Promise<void> {
      await db
        .updateTable('oauth_store')
        .set({ consumed_at: nowIso() })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('oauth_store').where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oauth_store').where('grant_id', '=', grantId).execute();
    }
  };
}
