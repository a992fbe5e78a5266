import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

/** A field that breaks its DTO's rules: its path (`refundAccount.bank`) and each failed constraint's message by name. */
export interface Violation {
  path: string;
  constraints: Record<string, string>;
}

/** class-validator's nested errors as one violation per field path, in the order they were found. */
export function flattenViolations(errors: ValidationError[], prefix = ''): Violation[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = error.constraints ? [{ path, constraints: error.constraints }] : [];
    return [...own, ...flattenViolations(error.children ?? [], path)];
  });
}

/**
 * `input` checked by a DTO class's own decorators, so that a form outside the API (the console's)
 * keeps each limit where the API writes it. By field path, the names of the failed constraints
 * (`min`, `isPrintableText`…), for the form to put in its own words.
 */
export function dtoViolations(
  dto: ClassConstructor<object>,
  input: object,
): ReadonlyMap<string, Record<string, string>> {
  const errors = validateSync(plainToInstance(dto, input), { forbidUnknownValues: true });
  return new Map(flattenViolations(errors).map(({ path, constraints }) => [path, constraints]));
}
