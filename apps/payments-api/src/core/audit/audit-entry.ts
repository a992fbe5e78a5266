/** What the audit log records: every change to keys, endpoints, secrets, members, refunds, cancels and shipments. */
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.rolled',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.enabled',
  'webhook_endpoint.disabled',
  'webhook_endpoint.deleted',
  'signing_secret.rotated',
  'member.invited',
  'member.invite_revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.two_step_enabled',
  'member.two_step_disabled',
  'member.two_step_reset',
  'member.password_changed',
  'member.password_reset',
  'refund.created',
  'payment.canceled',
  'escrow.shipped',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who an operator's change is recorded as in a merchant's audit log. */
export const OPERATOR_ACTOR = 'operator';

/** Who changed something: a member's email in the console, an API key's id (`key_…`) in the API. */
export interface AuditActor {
  readonly actor: string;
  /** The client address the change came from (req.ip, as TRUST_PROXY resolves it). */
  readonly clientAddress: string | null;
}

export interface AuditEntry extends AuditActor {
  readonly merchantId: string;
  readonly action: AuditAction;
  /** The id of what changed (`key_…`, `we_…`, `mem_…`, `rfd_…`, `pay_…`), or an invited or removed member's email. */
  readonly target: string | null;
}

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);
}
