import { EVENT_TYPES } from '@payhook/contracts';
import { id, instant, nullable, object, type Schema } from '../../platform/openapi/schema-builders';

const listenSession = {
  id: id('lsn'),
  livemode: { const: false },
  enabledEvents: {
    ...nullable({ type: 'array', items: { enum: [...EVENT_TYPES] } }),
    description: 'null: every type',
  },
  status: { enum: ['open', 'ended'] },
  createdAt: instant,
  endedAt: nullable(instant),
};

const openedSession = {
  id: 'lsn_7QfXk2mB9rT4wZ1cN8vL3sHd',
  livemode: false,
  enabledEvents: ['payment.completed', 'refund.succeeded'],
  status: 'open',
  createdAt: '2026-12-01T09:15:02.114Z',
  endedAt: null,
};

/**
 * A listen session's shapes, each with its example recorded from a run of
 * `payhook listen --events payment.completed,refund.succeeded`. The attempts a session reports
 * are the events feature's WebhookAttempt.
 */
export const LISTEN_SESSION_SCHEMAS: Record<string, Schema> = {
  ListenSession: { ...object(listenSession), examples: [openedSession] },
  // The secret only in the answer to the POST that opens the session.
  CreatedListenSession: {
    ...object({
      ...listenSession,
      signingSecret: {
        type: 'string',
        pattern: '^whsec_',
        description: "signs every event the session's stream sends",
      },
    }),
    examples: [{ ...openedSession, signingSecret: 'whsec_Hn3Kq8Zt2Wm5Xr7Bv1Yc4Lp9Df6Gs0Ja' }],
  },
};
