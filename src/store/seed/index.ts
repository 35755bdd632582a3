// Demo content (being written in issue #2).
import type { Store } from '../connect.ts';
export async function seedIfEmpty(_store: Store): Promise<boolean> {
  return false;
}
