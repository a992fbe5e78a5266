/**
 * The audit log page's English: its filters, its table and the name of each action it records
 * (the action's code is shown beside its name). ICU MessageFormat; Korean in ko.ts, with the same keys.
 */
export const en = {
  'audit.title': 'Audit log',
  'audit.about':
    'Times in {zone}. Every change to keys, webhook endpoints, signing secrets, members, refunds and cancels, from the console or the API; kept for at least a year.',
  'audit.actorFilter': 'Actor (member email or key id)',
  'audit.anyAction': 'Any action',
  'audit.filter': 'Filter',
  'audit.none': 'No entries.',
  'audit.noneMatch': 'No entries match these filters.',
  'audit.entries': 'Audit log entries',
  'audit.time': 'Time',
  'audit.actor': 'Actor',
  'audit.action': 'Action',
  'audit.target': 'Target',
  'audit.clientAddress': 'Client address',
  'audit.pages': 'Pages',
  'audit.newest': 'Newest',
  'audit.older': 'Older',

  'action.api_key.created': 'API key created',
  'action.api_key.rolled': 'API key rolled',
  'action.api_key.revoked': 'API key revoked',
  'action.webhook_endpoint.created': 'Webhook endpoint added',
  'action.webhook_endpoint.updated': 'Webhook endpoint changed',
  'action.webhook_endpoint.enabled': 'Webhook endpoint enabled',
  'action.webhook_endpoint.disabled': 'Webhook endpoint disabled',
  'action.webhook_endpoint.deleted': 'Webhook endpoint deleted',
  'action.signing_secret.rotated': 'Signing secret rotated',
  'action.member.invited': 'Member invited',
  'action.member.invite_revoked': 'Invite revoked',
  'action.member.joined': 'Member joined',
  'action.member.role_changed': 'Role changed',
  'action.member.removed': 'Member removed',
  'action.member.two_step_enabled': 'Two-step login turned on',
  'action.member.two_step_disabled': 'Two-step login turned off',
  'action.member.two_step_reset': 'Two-step login reset by the operator',
  'action.member.password_changed': 'Password changed',
  'action.member.password_reset': 'Password reset by e-mail',
  'action.refund.created': 'Refund made',
  'action.payment.canceled': 'Payment canceled',
  'action.escrow.shipped': 'Escrow shipment registered',
} as const;

export type AuditKey = keyof typeof en;
