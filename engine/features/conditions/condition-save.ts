// A condition as its editor holds it (name, description, active, and every rule) saved as one: in
// one transaction, a refused rule named by its place, nothing written when anything is refused.
import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';
import type { OpContext } from '../../ops/context.js';
import { inOneTransaction } from '../../ops/one-transaction.js';
import { ConditionRule } from '../../model/conditions.entity.js';
import { ConditionUpdateB, RuleResponseA } from './conditions.inputs.js';
import {
  batchUpsertRules,
  conditionWithRules,
  deleteRules,
  reachableCondition,
  saveCondition,
} from './conditions.rules.js';

export const ConditionSaveInput = lazySchema(() =>
  ConditionUpdateB.safeExtend({
    rules: z
      .array(RuleResponseA.pick({ id: true, name: true, connectionId: true, conditionRuleValues: true }))
      .max(100),
  }),
);

/** Writes the condition and exactly the rules listed (an id updates, none adds, one left out goes). */
export async function saveWholeCondition(ctx: OpContext, id: string, body: z.output<typeof ConditionSaveInput>) {
  const saved = await inOneTransaction(ctx, async (tx) => {
    const condition = await reachableCondition(tx, id);
    await saveCondition(tx, condition.id, { name: body.name, description: body.description, isActive: body.isActive });
    const stored = (await tx.db.getRepository(ConditionRule).findBy({ conditionId: condition.id })).map((r) => r.id);
    const kept = new Set(body.rules.map((r) => r.id).filter((x): x is string => !!x));
    const gone = stored.filter((r) => !kept.has(r));
    if (gone.length) await deleteRules(tx, condition.id, gone);
    // The batch checks every rule before it writes one, naming each by its place in the list.
    const rules = body.rules.map((r, i) => ({
      id: r.id,
      name: r.name,
      source: { connectionId: r.connectionId, field: `body.rules.${i}.connectionId` },
      values: r.conditionRuleValues ?? [],
    }));
    if (rules.length) await batchUpsertRules(tx, condition.id, rules, 'body.rules');
    return reachableCondition(tx, condition.id);
  });
  return conditionWithRules(ctx, saved);
}
