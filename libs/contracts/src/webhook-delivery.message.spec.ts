import {
  WEBHOOK_DELIVERY_REQUESTED_V1,
  WEBHOOK_DELIVERY_REQUESTED_V2,
  parseWebhookDeliveryRequest,
} from './webhook-delivery.message';

const v1 = {
  type: WEBHOOK_DELIVERY_REQUESTED_V1,
  eventId: 'evt_ABCDEFGHIJKLMNOPQRSTUVWX',
  retryStep: 0,
  manual: false,
  requestedAt: '2026-11-21T14:05:09.123Z',
};
const v2 = { ...v1, type: WEBHOOK_DELIVERY_REQUESTED_V2, endpointId: 'we_ABCDEFGHIJKLMNOPQRSTUVWX' };

describe('parseWebhookDeliveryRequest', () => {
  it('reads a v2 message with its endpoint', () => {
    expect(parseWebhookDeliveryRequest(JSON.stringify(v2))).toEqual({
      eventId: v2.eventId,
      endpointId: v2.endpointId,
      retryStep: 0,
      manual: false,
      requestedAt: v2.requestedAt,
    });
  });

  it('reads a v1 message, written before several endpoints, as one for no endpoint in particular', () => {
    expect(parseWebhookDeliveryRequest(JSON.stringify({ ...v1, retryStep: 2 }))).toEqual({
      eventId: v1.eventId,
      endpointId: null,
      retryStep: 2,
      manual: false,
      requestedAt: v1.requestedAt,
    });
  });

  it.each([
    ['not JSON', '{'],
    ['null', 'null'],
    ['another type', JSON.stringify({ ...v1, type: 'webhook.delivery-requested.v3' })],
    ['a v2 without its endpoint', JSON.stringify({ ...v2, endpointId: undefined })],
    ['a v2 with a bad endpoint id', JSON.stringify({ ...v2, endpointId: 'we_short' })],
    ['a bad event id', JSON.stringify({ ...v1, eventId: 'pay_ABCDEFGHIJKLMNOPQRSTUVWX' })],
    ['a negative step', JSON.stringify({ ...v2, retryStep: -1 })],
    ['a fractional step', JSON.stringify({ ...v1, retryStep: 1.5 })],
    ['a missing manual flag', JSON.stringify({ ...v2, manual: undefined })],
  ])('refuses %s as poison', (_, raw) => {
    expect(parseWebhookDeliveryRequest(raw)).toBeNull();
  });
});
