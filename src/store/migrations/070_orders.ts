// Orders: the billing details the person enters on the checkout page, the extra categories an order
// line buys, and an index for reading an order's lines.
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(_engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema.alterTable('orders').addColumn('billing_name', 'text').execute();
    await db.schema.alterTable('orders').addColumn('billing_address', 'text').execute();
    await db.schema
      .alterTable('order_lines')
      .addColumn('categories', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.createIndex('order_lines_order').on('order_lines').column('order_id').execute();
  };
}
