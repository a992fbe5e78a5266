import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { PayhookError } from '@payhook/contracts';
import { getMetadataStorage, validateSync } from 'class-validator';
import { flattenViolations, type Violation } from './dto-violations';
import { toDtoInstance } from './kept-as-parsed';

/**
 * Validates bodies and queries against their DTO class and reports the first problem, in a fixed
 * order: unknown fields first, then missing ones, then invalid values,
 * always naming the field in `param`.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const { metatype, type } = metadata;
    if ((type !== 'body' && type !== 'query') || !metatype || isPrimitive(metatype)) return value;

    const input = value ?? {};
    if (typeof input !== 'object' || Array.isArray(input)) {
      throw new PayhookError('parameter_invalid', 'The request body must be a JSON object.');
    }
    // Checked on the raw keys: class-transformer silently drops some (such as __proto__).
    const known = knownProperties(metatype);
    const unknown = Object.keys(input).find((key) => !known.has(key));
    if (unknown !== undefined) {
      const noun = type === 'query' ? 'query parameter' : 'field';
      throw new PayhookError('parameter_unknown', `Unknown ${noun}: ${unknown}.`, unknown);
    }
    const instance = toDtoInstance(metatype as new () => object, input);
    const errors = flattenViolations(
      validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true }),
    );
    if (errors.length > 0) throw toPayhookError(errors, type === 'query' ? 'query parameter' : 'field');
    return instance;
  }
}

/** Per DTO class, computed once: class-validator walks its whole metadata store on every call. */
const KNOWN_PROPERTIES = new WeakMap<object, Set<string>>();

function knownProperties(metatype: new (...args: never[]) => unknown): Set<string> {
  let known = KNOWN_PROPERTIES.get(metatype);
  if (!known) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
    known = new Set(metadata.map((entry) => entry.propertyName));
    KNOWN_PROPERTIES.set(metatype, known);
  }
  return known;
}

function isPrimitive(metatype: unknown): boolean {
  return [String, Boolean, Number, Array, Object].includes(metatype as never);
}

function toPayhookError(errors: Violation[], noun: string): PayhookError {
  const unknown = errors.find((error) => 'whitelistValidation' in error.constraints);
  if (unknown) return new PayhookError('parameter_unknown', `Unknown ${noun}: ${unknown.path}.`, unknown.path);
  const missing = errors.find((error) => 'isDefined' in error.constraints);
  if (missing) return new PayhookError('parameter_missing', `Missing ${noun}: ${missing.path}.`, missing.path);
  const [first] = errors;
  const reason = Object.values(first.constraints)[0];
  return new PayhookError('parameter_invalid', `Invalid ${noun} ${first.path}: ${reason}.`, first.path);
}
