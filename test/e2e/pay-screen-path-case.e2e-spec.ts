import { Writable } from 'node:stream';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';

/** Every line the app writes. */
class CapturedLines extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

/**
 * Issue 25 (10): the suffix is the payment screen's only key. A path that differs from /p/ only in
 * case must neither serve the screen (routing is case-sensitive) nor put the suffix in a log line.
 */
describe('payment screen path case', () => {
  let api: PaymentsApiHarness;
  const log = new CapturedLines();

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ LOG_FORMAT: 'json' }, undefined, log);
  });
  afterAll(() => api.stop());

  it('answers /P/{suffix} with 404 and logs no suffix in any case', async () => {
    const merchant = await api.merchantWithKey('test');
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', `k-${Math.random()}`)
      .send(paymentBody())
      .expect(201);
    const path = new URL(created.body.data.payUrl as string).pathname;
    const suffix = path.slice('/p/'.length);

    await api.http().get(path).expect(200);
    await api.http().get(`/P/${suffix}`).expect(404);
    await api.http().get(`/P/${suffix}/vouchers`).expect(404);

    expect(log.lines.join('\n')).toContain('/P/:suffix');
    expect(log.lines.join('\n')).not.toContain(suffix);
  });
});
