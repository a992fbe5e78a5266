import { ENDPOINT_DESCRIPTION_MAX_CHARS } from '../../../webhooks/endpoints';
import { MAX_URL_LENGTH } from '../../../platform/http/validators';
import { checkEndpointFields, checkWebhookEndpoint, type EndpointForm } from './console-endpoint-form';

const form = (values: Partial<EndpointForm>): EndpointForm => ({
  url: 'https://shop.example/webhooks',
  description: '',
  events: ['payment.completed'],
  ...values,
});

describe('the console endpoint forms', () => {
  it('take what the API takes, a blank description as none', () => {
    expect(checkEndpointFields(form({ description: '  books  ' }), 'create')).toEqual({
      kind: 'ok',
      fields: { url: 'https://shop.example/webhooks', enabledEvents: ['payment.completed'], description: 'books' },
    });
    expect(checkEndpointFields(form({}), 'update')).toMatchObject({ kind: 'ok', fields: { description: null } });
    expect(checkWebhookEndpoint('https://shop.example/webhooks', undefined)).toMatchObject({ kind: 'ok' });
  });

  it("refuse at the endpoint DTOs' own limits, with the form's message for the first broken field", () => {
    const longUrl = `https://shop.example/${'a'.repeat(MAX_URL_LENGTH)}`;
    expect(checkEndpointFields(form({ url: longUrl, events: [] }), 'create')).toEqual({
      kind: 'refused',
      message: 'The URL must be an absolute http(s) URL of at most 2,048 characters, without spaces.',
    });
    expect(checkWebhookEndpoint('https://shop.example/webhooks', ['payment.paid'])).toEqual({
      kind: 'refused',
      message: expect.stringContaining('Choose at least one of the event types: payment.completed'),
    });
    expect(checkEndpointFields(form({ events: [] }), 'update')).toMatchObject({ kind: 'refused' });
    expect(checkEndpointFields(form({ description: 'd'.repeat(ENDPOINT_DESCRIPTION_MAX_CHARS) }), 'create').kind).toBe(
      'ok',
    );
    expect(
      checkEndpointFields(form({ description: 'd'.repeat(ENDPOINT_DESCRIPTION_MAX_CHARS + 1) }), 'update'),
    ).toEqual({ kind: 'refused', message: 'A description is one line of at most 200 printable characters.' });
  });
});
