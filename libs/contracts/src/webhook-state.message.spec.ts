import {
  WEBHOOK_ENDPOINT_DELETED_V1,
  WEBHOOK_RECOVERY_REQUESTED_V1,
  parseWebhookEndpointDeleted,
  parseWebhookRecoveryRequest,
} from './webhook-state.message';

const recovery = {
  type: WEBHOOK_RECOVERY_REQUESTED_V1,
  recoveryId: 'rcv_ABCDEFGHIJKLMNOPQRSTUVWX',
  merchantId: 'mch_ABCDEFGHIJKLMNOPQRSTUVWX',
  livemode: false,
  since: '2026-11-20T00:00:00.000Z',
  endpointId: null,
  requestedAt: '2026-11-21T14:05:09.123Z',
};
const deleted = {
  type: WEBHOOK_ENDPOINT_DELETED_V1,
  endpointId: 'we_ABCDEFGHIJKLMNOPQRSTUVWX',
  merchantId: 'mch_ABCDEFGHIJKLMNOPQRSTUVWX',
  livemode: true,
  requestedAt: '2026-11-21T14:05:09.123Z',
};

describe('parseWebhookRecoveryRequest', () => {
  it('reads a recovery of every endpoint, or of one', () => {
    expect(parseWebhookRecoveryRequest(JSON.stringify(recovery))).toEqual(recovery);
    const one = { ...recovery, endpointId: 'we_ABCDEFGHIJKLMNOPQRSTUVWX' };
    expect(parseWebhookRecoveryRequest(JSON.stringify(one))).toEqual(one);
  });

  it.each([
    ['not JSON', '{'],
    ['another type', JSON.stringify({ ...recovery, type: WEBHOOK_ENDPOINT_DELETED_V1 })],
    ['a bad recovery id', JSON.stringify({ ...recovery, recoveryId: 'evt_ABCDEFGHIJKLMNOPQRSTUVWX' })],
    ['a since that is no instant', JSON.stringify({ ...recovery, since: 'yesterday' })],
    ['a missing endpoint', JSON.stringify({ ...recovery, endpointId: undefined })],
    ['a missing mode', JSON.stringify({ ...recovery, livemode: undefined })],
  ])('refuses %s as poison', (_, raw) => {
    expect(parseWebhookRecoveryRequest(raw)).toBeNull();
  });
});

describe('parseWebhookEndpointDeleted', () => {
  it('reads a deletion', () => {
    expect(parseWebhookEndpointDeleted(JSON.stringify(deleted))).toEqual(deleted);
  });

  it.each([
    ['null', 'null'],
    ['a recovery', JSON.stringify(recovery)],
    ['a bad endpoint id', JSON.stringify({ ...deleted, endpointId: 'lsn_ABCDEFGHIJKLMNOPQRSTUVWX' })],
    ['a missing merchant', JSON.stringify({ ...deleted, merchantId: undefined })],
  ])('refuses %s as poison', (_, raw) => {
    expect(parseWebhookEndpointDeleted(raw)).toBeNull();
  });
});
