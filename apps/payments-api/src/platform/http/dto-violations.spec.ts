import { Type } from 'class-transformer';
import { IsInt, Min, ValidateNested } from 'class-validator';
import { IsPrintableText } from './validators';
import { dtoViolations } from './dto-violations';

class InnerDto {
  @IsPrintableText(3)
  name!: string;
}

class OuterDto {
  @IsInt()
  @Min(1)
  count!: number;

  @ValidateNested()
  @Type(() => InnerDto)
  inner!: InnerDto;
}

describe('dtoViolations', () => {
  it('names each broken field by its path, with the names of the constraints it failed', () => {
    const broken = dtoViolations(OuterDto, { count: 0, inner: { name: 'four' } });
    expect([...broken.keys()]).toEqual(['count', 'inner.name']);
    expect(Object.keys(broken.get('count') ?? {})).toEqual(['min']);
    expect(Object.keys(broken.get('inner.name') ?? {})).toEqual(['isPrintableText']);
  });

  it('finds nothing in input that keeps every rule', () => {
    expect(dtoViolations(OuterDto, { count: 2, inner: { name: 'abc' } }).size).toBe(0);
  });
});
