import {
  identityDigits,
  isBusinessRegistrationNumber,
  maskIdentityNumber,
  validIdentityNumber,
} from './identity-number';

describe('a cash receipt identity number', () => {
  it('takes a mobile number for income deduction, hyphens and spaces ignored, and keeps the digits', () => {
    expect(validIdentityNumber('income_deduction', '010-1234-5678')).toBe('01012345678');
    expect(validIdentityNumber('income_deduction', '011 234 5678')).toBe('0112345678');
    expect(validIdentityNumber('income_deduction', '02-1234-5678')).toBeNull();
    expect(validIdentityNumber('income_deduction', '010123456789')).toBeNull();
  });

  it('takes a business registration number for expense proof only when its check digit is right', () => {
    // 124-81-00998 (a well-known registration number) and its neighbours with a wrong check digit.
    expect(isBusinessRegistrationNumber('1248100998')).toBe(true);
    expect(validIdentityNumber('expense_proof', '124-81-00998')).toBe('1248100998');
    for (const last of '012345679') expect(validIdentityNumber('expense_proof', `124810099${last}`)).toBeNull();
    // A mobile number is no business number, nor the other way round.
    expect(validIdentityNumber('expense_proof', '01012345678')).toBeNull();
    expect(validIdentityNumber('income_deduction', '1248100998')).toBeNull();
  });

  it('takes a cash receipt card number of 13 to 19 digits for either type', () => {
    for (const type of ['income_deduction', 'expense_proof'] as const) {
      expect(validIdentityNumber(type, '1234-5678-9012-3456')).toBe('1234567890123456');
      expect(validIdentityNumber(type, '1'.repeat(13))).toBe('1'.repeat(13));
      expect(validIdentityNumber(type, '1'.repeat(19))).toBe('1'.repeat(19));
      expect(validIdentityNumber(type, '1'.repeat(20))).toBeNull();
    }
  });

  it('refuses anything but digits, hyphens and spaces, and input too long to be a number', () => {
    for (const input of [
      '010.1234.5678',
      '０１０１２３４５６７８',
      '',
      '---',
      1012345678,
      null,
      `010${' '.repeat(60)}12345678`,
    ])
      expect(identityDigits(input)).toBeNull();
  });

  it('masks every digit but the last four', () => {
    expect(maskIdentityNumber('01012345678')).toBe('*******5678');
    expect(maskIdentityNumber('1248100998')).toBe('******0998');
  });
});
