import { ENDPOINT_DESCRIPTION_MAX_CHARS } from '../../../webhooks/endpoints';
import { MAX_URL_LENGTH } from '../../../platform/http/validators';
import { checkEndpointFields, checkWebhookEndpoint, type EndpointForm } from './console-endpoint-form';
import { developersT, type DevelopersMessage } from './messages';

const form = (values: Partial<EndpointForm>): EndpointForm => ({
  url: 'https://shop.example/webhooks',
  description: '',
  events: ['payment.completed'],
  ...values,
});

/** A refused form's message as the page says it in `locale`. */
const said = (checked: { kind: 'ok' } | { kind: 'refused'; refusal: DevelopersMessage }, locale: 'en' | 'ko' = 'en') =>
  checked.kind === 'refused' ? developersT(locale)(checked.refusal.key, checked.refusal.values) : null;

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
    const tooLong = checkEndpointFields(form({ url: longUrl, events: [] }), 'create');
    expect(said(tooLong)).toBe('The URL must be an absolute http(s) URL of at most 2,048 characters, without spaces.');
    expect(said(tooLong, 'ko')).toBe(
      'URL은 공백 없는 HTTP 또는 HTTPS 절대 주소여야 하며, 최대 2,048자까지 입력할 수 있습니다.',
    );
    expect(said(checkWebhookEndpoint('https://shop.example/webhooks', ['payment.paid']))).toContain(
      'Choose at least one of the event types: payment.completed',
    );
    expect(checkEndpointFields(form({ events: [] }), 'update')).toMatchObject({ kind: 'refused' });
    expect(checkEndpointFields(form({ description: 'd'.repeat(ENDPOINT_DESCRIPTION_MAX_CHARS) }), 'create').kind).toBe(
      'ok',
    );
    expect(
      said(checkEndpointFields(form({ description: 'd'.repeat(ENDPOINT_DESCRIPTION_MAX_CHARS + 1) }), 'update')),
    ).toBe('A description is one line of at most 200 printable characters.');
  });
});
