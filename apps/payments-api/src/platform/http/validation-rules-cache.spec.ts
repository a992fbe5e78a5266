import { getMetadataStorage, IsDefined, IsInt, Matches, validateSync } from 'class-validator';
import { cacheValidationRules } from './validation-rules-cache';

class OrderDto {
  @IsDefined()
  @Matches(/^o-\d+$/)
  orderId!: string;
}

class PaidOrderDto extends OrderDto {
  @IsInt()
  amount!: number;
}

const order = (values: object) => Object.assign(new PaidOrderDto(), values);
/** Each violation as `property: constraint names`, the way a caller reads them. */
const violations = (values: object) =>
  validateSync(order(values), { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true }).map(
    (error) => `${error.property}: ${Object.keys(error.constraints ?? {}).join(',')}`,
  );

const CASES = [
  { orderId: 'o-1', amount: 1 },
  { orderId: 'x', amount: 1.5 },
  { amount: 1 },
  { orderId: 'o-1', amount: 1, extra: true },
];

describe('cacheValidationRules', () => {
  const before = CASES.map(violations);

  beforeAll(() => cacheValidationRules());

  it("validates as class-validator does, inherited rules included, with a class's rules looked up once", () => {
    expect(before).toEqual([
      [],
      ['amount: isInt', 'orderId: matches'],
      ['orderId: isDefined,matches'],
      ['extra: whitelistValidation'],
    ]);
    expect(CASES.map(violations)).toEqual(before);
    const storage = getMetadataStorage();
    const lookUp = () => storage.getTargetValidationMetadatas(PaidOrderDto, '', false, false);
    expect(lookUp()).toBe(lookUp());
  });

  it('sees a rule added after its lookups, on a class it had looked up and on a new one', () => {
    expect(violations({ orderId: 'o-1', amount: 1, note: 7 })).toEqual(['note: whitelistValidation']);
    IsInt()(PaidOrderDto.prototype, 'note');
    expect(violations({ orderId: 'o-1', amount: 1, note: 7 })).toEqual([]);
    expect(violations({ orderId: 'o-1', amount: 1, note: 'seven' })).toEqual(['note: isInt']);

    class LaterDto {
      @IsInt()
      count!: number;
    }
    expect(validateSync(Object.assign(new LaterDto(), { count: 'x' })).map((error) => error.property)).toEqual([
      'count',
    ]);
  });

  it('wraps the storage once however many apps a process makes', () => {
    const storage = getMetadataStorage();
    const lookUp = storage.getTargetValidationMetadatas;
    cacheValidationRules();
    expect(storage.getTargetValidationMetadatas).toBe(lookUp);
  });
});
