import { initialShipmentForm, parseShipmentForm, shipmentFormValues } from './console-shipment-form';
import { consoleEscrowT } from './messages';

const english = consoleEscrowT('en');
const korean = consoleEscrowT('ko');

describe('the console shipment form', () => {
  it('reads trimmed fields, and nothing but strings', () => {
    expect(shipmentFormValues({ carrier: ' CJ대한통운 ', trackingNumber: ['1', '2'] })).toEqual({
      carrier: 'CJ대한통운',
      trackingNumber: '',
    });
  });

  it('starts empty for a first shipment, and from the shipment as registered for a correction', () => {
    expect(initialShipmentForm(null).values).toEqual({ carrier: '', trackingNumber: '' });
    const shipped = {
      status: 'shipped' as const,
      carrier: '우체국택배',
      trackingNumber: '6901-2345',
      shippedAt: new Date(),
      autoConfirmAt: new Date(),
      confirmedAt: null,
      autoConfirmed: null,
      rejectedAt: null,
      rejectReason: null,
    };
    expect(initialShipmentForm(shipped)).toEqual({
      values: { carrier: '우체국택배', trackingNumber: '6901-2345' },
      errors: {},
    });
  });

  it('takes 1 to 64 printable characters each, Korean included, counted as characters', () => {
    for (const shipment of [
      { carrier: 'CJ대한통운', trackingNumber: '6901-2345-6789' },
      { carrier: '한'.repeat(64), trackingNumber: 'x' },
      { carrier: '📦'.repeat(64), trackingNumber: '1 2 3' },
    ]) {
      expect(parseShipmentForm(shipment, english)).toEqual({ kind: 'valid', shipment });
    }
  });

  it('says what is wrong with each field, in the page’s language', () => {
    expect(parseShipmentForm({ carrier: '', trackingNumber: '' }, english)).toEqual({
      kind: 'invalid',
      errors: { carrier: 'Enter the carrier.', trackingNumber: 'Enter the tracking number.' },
    });
    expect(parseShipmentForm({ carrier: 'a'.repeat(65), trackingNumber: '1\t2' }, english)).toEqual({
      kind: 'invalid',
      errors: {
        carrier: 'The carrier takes at most 64 characters.',
        trackingNumber: 'The tracking number takes printable characters only: no tabs or line breaks.',
      },
    });
    expect(parseShipmentForm({ carrier: 'CJ', trackingNumber: '' }, korean)).toEqual({
      kind: 'invalid',
      errors: { trackingNumber: '운송장 번호를 입력하세요.' },
    });
    expect(parseShipmentForm({ carrier: 'a\u0000', trackingNumber: '9'.repeat(65) }, korean)).toEqual({
      kind: 'invalid',
      errors: {
        carrier: '택배사에는 탭이나 줄바꿈 없이 화면에 표시되는 문자만 입력할 수 있습니다.',
        trackingNumber: '운송장 번호는 최대 64자까지 입력할 수 있습니다.',
      },
    });
  });
});
