import { defineOp } from '../../ops/op.js';
import { uuidParams, v } from '../../core/validation.js';
import { SubscriptionInput } from './subscriptions.inputs.js';
import {
  createSubscription,
  deleteSubscriptions,
  LIST_OWN_SUBSCRIPTIONS,
  LIST_SITE_SUBSCRIPTIONS,
  listOwnSubscriptions,
  updateSubscription,
} from './subscriptions.rules.js';
import { SubscriptionResult } from './subscriptions.results.js';
import { DeletedResult } from '../common.results.js';

// Set A: a user's subscriptions. Each needs `subscribePublishedReport` and touches only the
// caller's own (another's answers 404); what may be subscribed to is checked in the rules.

/** The ids a subscription's body names (`objects` of create and update). */
const SUBSCRIPTION_OBJECTS = {
  'body.analyticsEntity.appId': 'analyticsApp',
  'body.analyticsEntity.id': 'none',
  'body.email.bccAnalyticsVariableId': 'none',
  'body.email.ccAnalyticsVariableId': 'none',
  'body.externalEvent.appId': 'analyticsApp',
  'body.filter.appId': 'analyticsApp',
  'body.filter.bookmarkId': 'none',
  'body.recipients[].id': ['user', 'group'],
  'body.reports[].filter.appId': 'analyticsApp',
  'body.reports[].filter.bookmarkId': 'none',
  'body.reports[].id': 'report',
} as const;

export const subscriptionsV1 = [
  defineOp({
    id: 'v1.subscriptions.create',
    summary: 'Create subscription',
    http: { method: 'POST', path: '/api/v1/subscriptions' },
    permission: 'subscribePublishedReport',
    objects: SUBSCRIPTION_OBJECTS,
    member: { report: 'subscribe' },
    input: { body: SubscriptionInput },
    result: SubscriptionResult,
    handler: (ctx, { body }) => createSubscription(ctx, body),
  }),
  defineOp({
    id: 'v1.subscriptions.listOwn',
    summary: 'List own subscriptions',
    http: { method: 'GET', path: '/api/v1/subscriptions' },
    permission: 'subscribePublishedReport',
    member: { report: 'view' },
    list: LIST_OWN_SUBSCRIPTIONS,
    result: SubscriptionResult,
    handler: (ctx, { list }) => listOwnSubscriptions(ctx, list, LIST_OWN_SUBSCRIPTIONS),
  }),
  defineOp({
    id: 'v1.subscriptions.delete',
    summary: 'Delete subscriptions',
    http: { method: 'DELETE', path: '/api/v1/subscriptions' },
    permission: 'subscribePublishedReport',
    objects: { 'body[]': 'subscription' },
    member: { report: 'view' },
    writes: 'chunked',
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteSubscriptions(ctx, body),
  }),
  defineOp({
    id: 'v1.subscriptions.update',
    summary: 'Update subscription',
    http: { method: 'PUT', path: '/api/v1/subscriptions/{SubcriptionId}' },
    permission: 'subscribePublishedReport',
    objects: { ...SUBSCRIPTION_OBJECTS, 'params.SubcriptionId': 'subscription' },
    member: { report: 'subscribe' },
    input: { params: uuidParams('SubcriptionId'), body: SubscriptionInput },
    result: SubscriptionResult,
    handler: (ctx, { params, body }) => updateSubscription(ctx, params.SubcriptionId, body),
  }),
  defineOp({
    id: 'v1.subscriptions.listBySite',
    summary: 'List subscriptions of the current user by site',
    http: { method: 'GET', path: '/api/v1/subscriptions/site' },
    permission: 'subscribePublishedReport',
    member: { report: 'view' },
    list: LIST_SITE_SUBSCRIPTIONS,
    result: SubscriptionResult,
    handler: (ctx, { list }) => listOwnSubscriptions(ctx, list, LIST_SITE_SUBSCRIPTIONS),
  }),
] as const;
