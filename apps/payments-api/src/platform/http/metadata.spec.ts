import { IsOptional } from 'class-validator';
import { dtoViolations } from './dto-violations';
import { toDtoInstance } from './kept-as-parsed';
import { IsMetadata, metadataFault } from './metadata';

class WithMetadataDto {
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}

class ChildDto extends WithMetadataDto {}

describe('metadataFault', () => {
  it('accepts up to 20 keys of 1 to 40 of [A-Za-z0-9_.-] with string values of 0 to 500 printable characters', () => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k.${i}_-`, '']));
    expect(metadataFault({})).toBeNull();
    expect(metadataFault(twenty)).toBeNull();
    expect(metadataFault({ ['K'.repeat(40)]: '가'.repeat(500), emoji: '😀'.repeat(500) })).toBeNull();
    expect(metadataFault(JSON.parse('{"constructor":"a","__proto__":"b"}'))).toBeNull();
  });

  it('names the key of a bad value, and only says that a bad key is bad (quoted, cut short)', () => {
    expect(metadataFault({ a: 1 })).toEqual({ key: 'a', reason: 'must be a string' });
    expect(metadataFault({ a: 'x'.repeat(501) })).toEqual({ key: 'a', reason: expect.stringContaining('500') });
    expect(metadataFault({ a: '\u0007' })?.key).toBe('a');
    expect(metadataFault({ a: '\ud800' })?.key).toBe('a');
    const long = metadataFault({ ['k'.repeat(5_000)]: 'v' });
    expect(long?.key).toBeUndefined();
    expect(long?.reason.length).toBeLessThan(200);
    expect(metadataFault({ 'a b': 'v' })).toEqual({ reason: expect.stringContaining('"a b" is not') });
  });

  it('refuses what is not an object, and more than 20 keys', () => {
    for (const value of [null, [], 'a', 1, true]) expect(metadataFault(value)?.key).toBeUndefined();
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    expect(metadataFault(many)).toEqual({ reason: 'must have at most 20 keys (it has 21)' });
  });
});

describe('@IsMetadata in a DTO', () => {
  it('names the violation metadata.<key> for a bad value, metadata otherwise', () => {
    expect([...dtoViolations(WithMetadataDto, { metadata: { note: 5 } }).keys()]).toEqual(['metadata.note']);
    expect([...dtoViolations(WithMetadataDto, { metadata: { 'no way': 'x' } }).keys()]).toEqual(['metadata']);
  });

  it('keeps the value as parsed: constructor and __proto__ are keys like any other, in subclasses too', () => {
    const parsed = JSON.parse('{"metadata":{"constructor":"a","__proto__":"b","n":{"constructor":"c"}}}') as object;
    for (const dto of [WithMetadataDto, ChildDto]) {
      const instance = toDtoInstance(dto, parsed);
      expect(instance).toBeInstanceOf(dto);
      expect(instance.metadata).toBe((parsed as { metadata: object }).metadata);
      expect([...dtoViolations(dto, parsed).keys()]).toEqual(['metadata.n']);
    }
  });
});
