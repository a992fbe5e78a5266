import { WEBHOOK_DELIVERY_REQUESTED_V1, parseWebhookDeliveryRequestedV1 } from './webhook-delivery.message';

const valid = {
  type: WEBHOOK_DELIVERY_REQUESTED_V1,
  eventId: 'evt_ABCDEFGHIJKLMNOPQRSTUVWX',
  retryStep: 0,
  manual: false,
  requestedAt: '2026-11-21T14:05:09.123Z',
};

describe('parseWebhookDeliveryRequestedV1', () => {
  it('accepts a v1 message', () => {
    expect(parseWebhookDeliveryRequestedV1(JSON.stringify(valid))).toEqual(valid);
  });

  it.each([
    ['not JSON', '{'],
    ['null', 'null'],
    ['another type', JSON.stringify({ ...valid, type: 'webhook.delivery-requested.v2' })],
    ['a bad event id', JSON.stringify({ ...valid, eventId: 'pay_ABCDEFGHIJKLMNOPQRSTUVWX' })],
    ['a negative step', JSON.stringify({ ...valid, retryStep: -1 })],
    ['a fractional step', JSON.stringify({ ...valid, retryStep: 1.5 })],
    ['a missing manual flag', JSON.stringify({ ...valid, manual: undefined })],
  ])('refuses %s as poison', (_, raw) => {
    expect(parseWebhookDeliveryRequestedV1(raw)).toBeNull();
  });
});
