import { EntitySchema } from 'typeorm';
import { baseColumns, flag, ref, text, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization, projectInside } from '../core/organization-boundary.js';

/** A named test a task report must pass before it runs: all of its rules must hold (set A 2.2, set B 2.4). */
export interface ConditionRow extends BaseRow {
  projectId: string;
  name: string;
  description: string | null;
  isActive: boolean;
}

export const Condition = new EntitySchema<ConditionRow>({
  name: 'Condition',
  tableName: 'conditions',
  columns: { ...baseColumns, projectId: ref(false), name: text(false), description: text(), isActive: flag(true) },
  foreignKeys: [{ target: 'Project', columnNames: ['projectId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  indices: [
    { name: 'IDX_conditions_project_id', columns: ['projectId', 'id'] },
    { name: 'IDX_conditions_project', columns: ['projectId'] },
  ],
});

export const RULE_VALUE_TYPES = ['Variable', 'Chart'] as const;
export type RuleValueType = (typeof RULE_VALUE_TYPES)[number];
export const COMPARISON_OPERATORS = ['=', '<>', '>', '>=', '<', '<='] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

/**
 * One comparison of a rule: a variable's value against `comparisonValue` through `operator`, or
 * whether a chart has data (`chartHasValue` true) or has none (false).
 */
export interface RuleValue {
  id: string;
  type: RuleValueType;
  variable: string | null;
  comparisonValue: string | null;
  chart: string | null;
  chartHasValue: boolean;
  operator: ComparisonOperator | null;
  lastReloadSuccessful: boolean;
  order: number;
}

/** A rule reads one analytics app (through a connection of the condition's project); all its values must hold. */
export interface ConditionRuleRow extends BaseRow {
  conditionId: string;
  name: string;
  connectionId: string;
  values: RuleValue[];
}

export const ConditionRule = new EntitySchema<ConditionRuleRow>({
  name: 'ConditionRule',
  tableName: 'condition_rules',
  columns: {
    ...baseColumns,
    conditionId: ref(false),
    name: text(false),
    connectionId: ref(false),
    values: { type: 'simple-json' },
  },
  foreignKeys: [
    { target: 'Condition', columnNames: ['conditionId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    { target: 'Connection', columnNames: ['connectionId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
  ],
  indices: [{ name: 'IDX_condition_rules_condition', columns: ['conditionId'] }],
});

// A condition, and each of its rules, belongs to its project's organization.
boundByOrganization(Condition, (x) => projectInside(`${x}."projectId"`));
boundByOrganization(
  ConditionRule,
  (x) => `${x}."conditionId" IN (SELECT bc.id FROM conditions bc WHERE ${projectInside('bc."projectId"')})`,
);
