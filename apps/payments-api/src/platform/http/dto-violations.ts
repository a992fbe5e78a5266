import type { ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { toDtoInstance } from './kept-as-parsed';
import { IS_METADATA, metadataFault } from './metadata';

/** A field that breaks its DTO's rules: its path (`refundAccount.bank`) and each failed constraint's message by name. */
export interface Violation {
  path: string;
  constraints: Record<string, string>;
}

/**
 * class-validator's nested errors as one violation per field path, in the order they were found.
 * Metadata has no class to nest: its violation names the key whose value is at fault itself
 * (`metadata.note`), as a nested field's would.
 */
export function flattenViolations(errors: ValidationError[], prefix = ''): Violation[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const key = error.constraints?.[IS_METADATA] === undefined ? undefined : metadataFault(error.value)?.key;
    const path = key === undefined ? field : `${field}.${key}`;
    const own = error.constraints ? [{ path, constraints: error.constraints }] : [];
    return [...own, ...flattenViolations(error.children ?? [], field)];
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
  const errors = validateSync(toDtoInstance(dto, input), { forbidUnknownValues: true });
  return new Map(flattenViolations(errors).map(({ path, constraints }) => [path, constraints]));
}
