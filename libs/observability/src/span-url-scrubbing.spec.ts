import { SpanKind, type Attributes } from '@opentelemetry/api';
import { scrubUrlAttributes } from './span-url-scrubbing';

describe('scrubUrlAttributes', () => {
  it('keeps only the host, port and scheme of an outgoing request (a webhook POST)', () => {
    const attributes: Attributes = {
      'http.request.method': 'POST',
      'url.full': 'https://shop.example/hooks/T0KEN?token=secret',
      'url.path': '/hooks/T0KEN',
      'url.query': '?token=secret',
      'url.scheme': 'https',
      'server.address': 'shop.example',
      'server.port': 443,
      'http.url': 'https://shop.example/hooks/T0KEN?token=secret',
      'http.target': '/hooks/T0KEN?token=secret',
    };
    scrubUrlAttributes(attributes, SpanKind.CLIENT);
    expect(attributes).toEqual({
      'http.request.method': 'POST',
      'url.scheme': 'https',
      'server.address': 'shop.example',
      'server.port': 443,
    });
  });

  it('keeps an incoming request’s path as the logs record it: no query, the payment link masked', () => {
    const attributes: Attributes = {
      'url.path': '/p/SuffixOfThePaymentLink',
      'url.query': 'lang=ko',
      'http.target': '/v1/payments?customerId=customer-7',
      'http.url': 'http://localhost:3000/v1/payments?customerId=customer-7',
      'http.route': '/v1/payments',
    };
    scrubUrlAttributes(attributes, SpanKind.SERVER);
    expect(attributes).toEqual({
      'url.path': '/p/:suffix',
      'http.target': '/v1/payments',
      'http.route': '/v1/payments',
    });
  });

  it('leaves spans without URLs alone', () => {
    const attributes: Attributes = { 'db.system': 'postgresql', 'payhook.payment_id': 'pay_1' };
    scrubUrlAttributes(attributes, SpanKind.CLIENT);
    expect(attributes).toEqual({ 'db.system': 'postgresql', 'payhook.payment_id': 'pay_1' });
  });
});
